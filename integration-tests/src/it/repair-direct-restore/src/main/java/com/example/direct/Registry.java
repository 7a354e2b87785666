package com.example.direct;

import java.util.ArrayList;
import java.util.List;

public final class Registry {
    public static final List<String> NAMES = new ArrayList<>(List.of("builtin"));

    private Registry() {
    }

    public static void register(String name) {
        NAMES.add(name.trim());
    }
}

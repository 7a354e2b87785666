package com.example.audit;

import java.util.ArrayList;
import java.util.List;

public final class Registry {
    public static final List<String> NAMES = new ArrayList<>();

    private Registry() {}

    public static void add(String name) {
        NAMES.add(name);
    }
}

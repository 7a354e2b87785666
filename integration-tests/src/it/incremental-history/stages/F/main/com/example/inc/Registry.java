package com.example.inc;

import java.util.ArrayList;
import java.util.List;

public final class Registry {
    public static final List<String> ENTRIES = new ArrayList<>();
    public static final int LIMIT = 10;

    private Registry() {
    }
}

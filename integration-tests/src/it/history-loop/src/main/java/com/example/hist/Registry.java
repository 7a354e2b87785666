package com.example.hist;

import java.util.ArrayList;
import java.util.List;

public final class Registry {
    public static final List<String> NAMES = new ArrayList<>();

    private Registry() {}
}

package com.example.isonod;

import java.util.ArrayList;
import java.util.List;

final class Shared {
    static final List<String> ITEMS = new ArrayList<>();

    private Shared() {}
}

package com.example.inc;

public final class Audit {
    private Audit() {
    }

    public static int entries() {
        return Registry.ENTRIES.size();
    }
}

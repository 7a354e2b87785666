package com.example.inc;

public final class Clock {
    public static final String ZONE = "UTC";

    private Clock() {
    }

    public static String zone() {
        return ZONE;
    }
}

package com.example.kit;

/** A clock only Beta1ClockTest uses (stage a). */
public final class Clock {
    private Clock() {}

    public static int hour() {
        return 12;
    }
}

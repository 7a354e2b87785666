package com.example.causes;

/** Static state the tests share by accident. */
public final class Settings {
    /** "default" until a test changes it. */
    public static String mode = "default";

    /** How many times {@link #lookup()} ran: CharlieModeTest counts on it and resets it after each test. */
    public static int lookups;

    public static String lookup() {
        lookups++;
        return mode;
    }

    private Settings() {}
}

package com.example.fix;

public final class Settings {
    public static String mode = "default";

    private Settings() {}
}

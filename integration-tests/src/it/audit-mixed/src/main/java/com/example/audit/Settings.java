package com.example.audit;

public final class Settings {
    public static String mode = "default";
    public static int level = 0;

    private Settings() {}
}

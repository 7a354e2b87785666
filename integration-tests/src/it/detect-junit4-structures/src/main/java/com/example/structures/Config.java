package com.example.structures;

/** Shared state of structure (c): ConfigInitTest loads it, ConfigUseTest needs it loaded. */
public final class Config {
    public static boolean loaded;

    private Config() {
    }
}

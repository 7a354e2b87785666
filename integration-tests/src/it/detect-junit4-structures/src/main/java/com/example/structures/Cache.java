package com.example.structures;

/** Shared state of structure (a): CacheFillTest sets it, CacheFlushTest resets it, CacheCheckTest needs it unset. */
public final class Cache {
    public static String entry;

    private Cache() {
    }
}

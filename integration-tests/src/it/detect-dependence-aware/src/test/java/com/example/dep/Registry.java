package com.example.dep;

import java.util.HashMap;
import java.util.Map;

/** Shared state mutated through a final reference: a read of ENTRIES may be a write. */
final class Registry {
    static final Map<String, String> ENTRIES = new HashMap<>();

    private Registry() {}
}

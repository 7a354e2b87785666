package com.example.app;

import com.example.kit.Registry;
import org.junit.jupiter.api.Test;

class Alpha2PolluterTest {
    @Test
    void registers() {
        Registry.register("k", "v");
    }
}

package com.example.demo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The polluter: registers a name and never clears the registry. */
class RegistryTest {
    @Test
    void registersAdmin() {
        Registry.register("admin");
        assertTrue(Registry.names().contains("admin"));
    }
}

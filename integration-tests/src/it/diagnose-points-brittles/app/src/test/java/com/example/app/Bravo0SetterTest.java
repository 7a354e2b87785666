package com.example.app;

import com.example.kit.Settings;
import org.junit.jupiter.api.Test;

class Bravo0SetterTest {
    @Test
    void initializes() {
        Settings.init();
    }
}

package com.example.j5;

import org.junit.jupiter.api.Test;

class OtherTest {
    @Test
    void x() {
        Trace.log("OtherTest#x");
    }

    @Test
    void y() {
        Trace.log("OtherTest#y");
    }
}

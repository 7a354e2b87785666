package com.example.j5;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OrderedTest {
    @Test
    @Order(1)
    void first() {
        Trace.log("OrderedTest#first");
    }

    @Test
    @Order(2)
    void second() {
        Trace.log("OrderedTest#second");
    }

    @Test
    @Order(3)
    void third() {
        Trace.log("OrderedTest#third");
    }
}

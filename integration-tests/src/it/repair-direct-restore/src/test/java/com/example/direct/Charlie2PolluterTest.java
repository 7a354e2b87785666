package com.example.direct;

import org.junit.Test;

public class Charlie2PolluterTest {
    @Test
    public void stocks() {
        Catalog.items().put("apple", 3);
    }
}

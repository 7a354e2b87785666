package com.example.isonod;

import org.junit.Test;

public class Alpha2PolluterTest {
    @Test
    public void adds() {
        Shared.ITEMS.add("x");
    }
}

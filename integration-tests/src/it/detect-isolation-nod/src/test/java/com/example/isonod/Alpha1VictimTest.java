package com.example.isonod;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class Alpha1VictimTest {
    @Test
    public void startsEmpty() {
        assertEquals(0, Shared.ITEMS.size());
    }
}

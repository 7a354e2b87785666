package com.example.direct;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class Charlie1VictimTest {
    @Test
    public void startsEmpty() {
        assertTrue(Catalog.items().isEmpty());
    }
}

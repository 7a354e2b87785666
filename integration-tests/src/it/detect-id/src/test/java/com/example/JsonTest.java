package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class JsonTest {
    /** ID: compares JSON text whose keys come in the order a HashMap iterates. */
    @Test
    public void countsAsJson() {
        assertEquals("{\"bb\":2,\"a\":1,\"c\":1}", Json.of(Json.counts()));
    }
}

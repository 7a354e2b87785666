package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CatalogTest {
    /** ID: assumes the HashSet of Catalog.names() iterates as it does today. */
    @Test
    public void joinedNames() {
        assertEquals("a,b,c,d,e", Catalog.joined());
    }

    /** ID through the same call as joinedNames: one patch repairs both. */
    @Test
    public void joinedNamesUpperCase() {
        assertEquals("A,B,C,D,E", Catalog.joined().toUpperCase());
    }

    /** Not ID: compares sets, whatever their order. */
    @Test
    public void sameNames() {
        assertEquals(new java.util.HashSet<>(java.util.Arrays.asList("e", "d", "c", "b", "a")), Catalog.names());
    }
}

package com.example.fof;

import static org.junit.Assert.assertNull;

import org.junit.Test;

/** The victim: runs before FillTest in the original order. */
public class CheckTest {
    @Test
    public void startsEmpty() {
        assertNull("Store.value was left set by another test", Store.value);
    }
}

package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class DescriberTest {
    /** ID: assumes getDeclaredFields returns the fields in declaration order. */
    @Test
    public void describesFieldsInOrder() {
        assertEquals("a,b,c,d", Describer.fieldNames(Point.class));
    }
}

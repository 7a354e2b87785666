package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class DescriberTest {
    /** ID: assumes getDeclaredFields returns the fields in declaration order. */
    @Test
    public void describesFieldsInOrder() {
        assertEquals("a,b,c,d", Describer.fieldNames(Point.class));
    }

    /**
     * ID: the expected text was written for the order this JDK gives (declaration order); sorting
     * the fields (SortFields) changes it, so the repair also updates this literal.
     */
    @Test
    public void describesReadingFields() {
        assertEquals("zeta,alpha,mid", Describer.fieldNames(Reading.class));
    }
}

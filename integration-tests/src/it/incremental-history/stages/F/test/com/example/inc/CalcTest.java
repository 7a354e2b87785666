package com.example.inc;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CalcTest {
    @Test
    public void adds() {
        Calc.setOffset(0);
        assertEquals(5, Calc.add(2, 3));
    }

    @Test
    public void setsOffset() {
        Calc.setOffset(1);
        assertEquals(6, Calc.add(2, 3));
    }
}

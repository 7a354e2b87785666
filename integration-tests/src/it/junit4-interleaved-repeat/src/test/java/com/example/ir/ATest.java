package com.example.ir;

import org.junit.BeforeClass;
import org.junit.Test;

public class ATest {
    @BeforeClass
    public static void beforeClass() {
        Trace.log("ATest@BeforeClass");
    }

    @Test
    public void a1() {
        Trace.log("ATest#a1");
    }

    @Test
    public void a2() {
        Trace.log("ATest#a2");
    }
}

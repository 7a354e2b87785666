package com.example.ir;

import org.junit.BeforeClass;
import org.junit.Test;

public class BTest {
    @BeforeClass
    public static void beforeClass() {
        Trace.log("BTest@BeforeClass");
    }

    @Test
    public void b1() {
        Trace.log("BTest#b1");
    }
}

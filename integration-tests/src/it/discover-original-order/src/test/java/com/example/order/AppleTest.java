package com.example.order;

import org.junit.Test;
import org.junit.FixMethodOrder;
import org.junit.runners.MethodSorters;

@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class AppleTest {
    @Test
    public void c_third() {
        Trace.ran("com.example.order.AppleTest#c_third");
    }

    @Test
    public void a_first() {
        Trace.ran("com.example.order.AppleTest#a_first");
    }

    @Test
    public void b_second() {
        Trace.ran("com.example.order.AppleTest#b_second");
    }
}

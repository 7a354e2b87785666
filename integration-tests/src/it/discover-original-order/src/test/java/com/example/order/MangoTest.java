package com.example.order;

import org.junit.Test;

public class MangoTest {
    @Test
    public void delta() {
        Trace.ran("com.example.order.MangoTest#delta");
    }

    @Test
    public void alpha() {
        Trace.ran("com.example.order.MangoTest#alpha");
    }

    @Test
    public void charlie() {
        Trace.ran("com.example.order.MangoTest#charlie");
    }

    @Test
    public void bravo() {
        Trace.ran("com.example.order.MangoTest#bravo");
    }

    @Test
    public void echo() {
        Trace.ran("com.example.order.MangoTest#echo");
    }
}

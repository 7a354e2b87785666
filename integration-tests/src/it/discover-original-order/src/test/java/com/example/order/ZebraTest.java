package com.example.order;

import org.junit.Test;

public class ZebraTest {
    @Test
    public void zulu() {
        Trace.ran("com.example.order.ZebraTest#zulu");
    }

    @Test
    public void yankee() {
        Trace.ran("com.example.order.ZebraTest#yankee");
    }

    @Test
    public void xray() {
        Trace.ran("com.example.order.ZebraTest#xray");
    }
}

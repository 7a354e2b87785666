package com.example.order;

import java.util.Arrays;
import java.util.Collection;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class BananaParamTest {
    @Parameters
    public static Collection<Object[]> data() {
        return Arrays.asList(new Object[][] {{1}, {2}});
    }

    private final int value;

    public BananaParamTest(int value) {
        this.value = value;
    }

    @Test
    public void check() {
        Trace.ran("com.example.order.BananaParamTest#check[" + (value - 1) + "]");
    }
}

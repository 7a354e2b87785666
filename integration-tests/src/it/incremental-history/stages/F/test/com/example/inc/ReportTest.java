package com.example.inc;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ReportTest {
    @Test
    public void total() {
        assertEquals(6, Report.total(1, 2, 3));
    }
}

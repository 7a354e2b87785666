package com.example.direct;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

public class Bravo1VictimTest {
    @Test
    public void seesOnlyTheBuiltin() {
        assertEquals(List.of("builtin"), Registry.NAMES);
    }
}

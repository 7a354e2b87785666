package io.github.odrust.samples.state;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** A static field holding a primitive type's Class ({@code void.class}): captured and restored by name. */
public class StateClassValueTest {
    public static Class<?> returnType = void.class;

    @Test
    public void setsInt() {
        returnType = int.class;
    }

    @Test
    public void expectsVoid() {
        assertEquals(void.class, returnType);
    }
}

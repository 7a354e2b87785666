package com.example.boom;

import java.lang.reflect.Field;
import org.junit.Test;

public class CrashTest {
    /** Writes to address 0: the JVM dies with SIGSEGV. */
    @Test
    public void crashes() throws Exception {
        Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        Field field = unsafeClass.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        Object unsafe = field.get(null);
        unsafeClass.getMethod("putAddress", long.class, long.class).invoke(unsafe, 0L, 0L);
    }
}

package com.example.fid;

import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.util.Arrays;
import org.junit.Test;

/** With -Dfidelity.differ=true: passes under Surefire only, so odrust's outcome differs. */
public class SurefireOnlyTest {
    @Test
    public void underSurefire() {
        assumeTrue(Boolean.getBoolean("fidelity.differ"));
        boolean surefire = Arrays.stream(Thread.currentThread().getStackTrace())
                .anyMatch(frame -> frame.getClassName().startsWith("org.apache.maven.surefire."));
        assertTrue("not run by Surefire", surefire);
    }
}

package io.github.odrust.maven.repair.od;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.odrust.engine.protocol.AuditStep;
import io.github.odrust.engine.protocol.ResetResponse;
import org.junit.jupiter.api.Test;

class LatentFixesTest {
    @Test
    void aParameterizedInvocationIsPatchedInItsMethod() {
        assertEquals("com.acme.FooTest#bar", LatentFixes.method("com.acme.FooTest#bar"));
        assertEquals("com.acme.FooTest#bar", LatentFixes.method("com.acme.FooTest#bar[2]"));
        // an overloaded method keeps its parameter types: the patcher tells the overloads apart
        assertEquals("com.acme.FooTest#bar(int)", LatentFixes.method("com.acme.FooTest#bar(int)[1]"));
        assertEquals(
                "com.acme.Foo$InnerTest#bar(java.lang.String)",
                LatentFixes.method("com.acme.Foo$InnerTest#bar(java.lang.String)"));
        assertEquals("bar", LatentFixes.name("com.acme.FooTest#bar(int)[1]"));
        assertEquals("bar", LatentFixes.name("com.acme.FooTest#bar[3]"));
    }

    @Test
    void theCommentSaysWhatIsSetBackAndHow() {
        AuditStep.Wanted w = new AuditStep.Wanted();
        w.test = "com.acme.FooTest#bar[2]";
        w.field = "com.acme.Config.mode";
        ResetResponse.Candidate c = new ResetResponse.Candidate();
        c.kind = "passing-value";
        assertEquals(
                "odrust: sets back com.acme.Config.mode, which the test bar() leaves changed\n"
                        + "(to the value it had before the test; found by odrust:audit before any test fails because of it)",
                LatentFixes.comment(w, c));
        c.kind = "static-method";
        assertEquals(
                "odrust: sets back com.acme.Config.mode, which the test bar() leaves changed\n"
                        + "(with the module's own reset code; found by odrust:audit before any test fails because of it)",
                LatentFixes.comment(w, c));
    }
}

package io.github.odrust.maven.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.odrust.maven.detect.DetectConfig;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;

class MinimizeTargetsTest {
    @Test
    void onlyTheNamedTestIsExplained() throws Exception {
        DetectConfig config = new DetectConfig();
        MinimizeTargets.configure(config, " p.W#w ");
        assertEquals(List.of("p.W#w"), config.minimizeOnly);
        assertEquals(true, config.minimize);
    }

    @Test
    void aTestMustBeNamed() {
        MojoFailureException e =
                assertThrows(MojoFailureException.class, () -> MinimizeTargets.configure(new DetectConfig(), " "));
        assertEquals(true, e.getMessage().contains("-Dodrust.test="), e.getMessage());
    }
}

package io.github.odrust.maven;

import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/** {@code odrust:reproduce}: the same goal as {@code odrust:run-order}, named for re-running a failing order. */
@Mojo(name = "reproduce", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class ReproduceMojo extends AbstractRunOrderMojo {
    @Override
    protected String goal() {
        return "reproduce";
    }
}

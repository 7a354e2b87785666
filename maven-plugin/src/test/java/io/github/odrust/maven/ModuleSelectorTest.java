package io.github.odrust.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Reproduce commands work from where the user ran Maven. */
class ModuleSelectorTest {
    private static final Path ROOT = Path.of("/work/shop");

    @Test
    void aSingleModuleRunFromItsOwnFolderNeedsNothing() {
        assertEquals("", AbstractOdrustMojo.moduleSelector(ROOT, ROOT.resolve("pom.xml"), false));
    }

    @Test
    void aModuleOfAMultiModuleBuildIsNamedByItsPom() {
        assertEquals("-f cart/pom.xml ", AbstractOdrustMojo.moduleSelector(ROOT, ROOT.resolve("cart/pom.xml"), true));
        // even the root module: a plain mvn there would run every module
        assertEquals("-f pom.xml ", AbstractOdrustMojo.moduleSelector(ROOT, ROOT.resolve("pom.xml"), true));
    }

    @Test
    void aBuildGivenWithMinusFKeepsIt() {
        assertEquals(
                "-f other/build.xml ", AbstractOdrustMojo.moduleSelector(ROOT, ROOT.resolve("other/build.xml"), false));
        assertEquals(
                "-f /elsewhere/pom.xml ",
                AbstractOdrustMojo.moduleSelector(ROOT, Path.of("/elsewhere/pom.xml"), false));
    }
}

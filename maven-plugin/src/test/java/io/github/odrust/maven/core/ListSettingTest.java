package io.github.odrust.maven.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;

class ListSettingTest {
    @Test
    void entriesAreTrimmedAndAnAbsentOrBlankValueIsNone() throws Exception {
        assertEquals(List.of("com.acme.", "org.x.Json"), ListSetting.classPrefixes("s", " com.acme. ,, org.x.Json"));
        assertEquals(List.of(), ListSetting.classPrefixes("s", null));
        assertEquals(List.of(), ListSetting.classPrefixes("s", "  "));
        assertEquals(
                List.of("com.acme.Log#LOGGER", "*#COUNTER", "com.acme.Cache"),
                ListSetting.fieldPatterns("s", "com.acme.Log#LOGGER,*#COUNTER,com.acme.Cache"));
    }

    @Test
    void aValueThatNamesNothingOrAMisshapenEntryIsRefusedNamingTheSettingAndTheEntry() {
        String m = assertThrows(
                        MojoFailureException.class, () -> ListSetting.classPrefixes("odrust.diagnose.include", ",,"))
                .getMessage();
        assertTrue(m.contains("odrust.diagnose.include=',,' names nothing") && m.contains("leave it out"), m);
        m = assertThrows(
                        MojoFailureException.class,
                        () -> ListSetting.classPrefixes("odrust.dependence.include", "com.acme, src/main"))
                .getMessage();
        assertTrue(
                m.contains("'src/main' is not a dotted class-name prefix")
                        && m.contains("-Dodrust.dependence.include="),
                m);
        m = assertThrows(
                        MojoFailureException.class,
                        () -> ListSetting.fieldPatterns("odrust.dependence.free", "com.acme.Log#A#B"))
                .getMessage();
        assertTrue(m.contains("'com.acme.Log#A#B' is not a static field pattern"), m);
    }
}

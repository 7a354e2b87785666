package io.github.odrust.agent.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.samples.state.StateHolder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/** Captures and restores in-process, without the agent's Instrumentation (CaptureIT has it). */
class CaptureTest {
    static final String H = "io.github.odrust.samples.state.StateHolder";
    static final List<Class<?>> CLASSES = Arrays.asList(StateHolder.Registry.class, StateHolder.class);

    @AfterEach
    void clean() {
        StateHolder.reset();
    }

    static String capture() {
        return new StateWriter(new Access(null), StateWriter.DEFAULT_LIMIT).capture("T#t", 1, CLASSES);
    }

    static String field(String xml, String cls, String name) {
        int c = xml.indexOf("<class name=\"" + cls + "\"");
        assertTrue(c >= 0, cls + " in " + xml);
        int s = xml.indexOf("<static field=\"" + name + "\"", c);
        assertTrue(s >= 0, name + " in " + xml);
        return xml.substring(s, xml.indexOf("</static>", s) + 9);
    }

    @Test
    void writesEveryShapeDeterministically() {
        StateHolder.SEEN.add(3);
        StateHolder.SEEN.add(10);
        StateHolder.SEEN.add(2);
        StateHolder.ordered.put("z", "1");
        StateHolder.ordered.put("a", "2");
        String xml = capture();
        assertEquals(xml, capture(), "the same state gives the same XML");
        assertTrue(
                xml.startsWith(
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<capture version=\"1\" test=\"T#t\" occurrence=\"1\""),
                xml);
        assertTrue(
                xml.contains("<pseudo name=\"java.lang.System.properties\"><map class=\"java.util.Properties\""), xml);
        assertTrue(xml.contains("<entry><string>java.version</string><string>" + System.getProperty("java.version")
                + "</string></entry>"));
        assertFalse(xml.contains("sun.java.command"));
        assertEquals(
                "<static field=\"RATES\" type=\"java.util.Map\" final=\"true\"><map class=\"java.util.HashMap\" size=\"0\"></map></static>",
                field(xml, H, "RATES"));
        assertEquals(
                "<static field=\"counts\" type=\"int[]\" final=\"false\"><array class=\"int[]\" length=\"3\">"
                        + "<prim class=\"int\">1</prim><prim class=\"int\">2</prim><prim class=\"int\">3</prim></array></static>",
                field(xml, H, "counts"));
        assertEquals(
                "<static field=\"mode\" type=\"" + H + "$Mode\" final=\"false\"><enum class=\"" + H
                        + "$Mode\">SLOW</enum></static>",
                field(xml, H, "mode"));
        // a cycle: the ring's second node points back at the first
        assertEquals(
                "<static field=\"ring\" type=\"" + H + "$Node\" final=\"false\"><object class=\"" + H + "$Node\">"
                        + "<field name=\"name\"><string>a</string></field><field name=\"next\"><object class=\"" + H
                        + "$Node\">"
                        + "<field name=\"name\"><string>b</string></field><field name=\"next\"><ref to=\"" + H
                        + ".ring\"/></field>"
                        + "</object></field></object></static>",
                field(xml, H, "ring"));
        // identity: `alias` is written first (fields sorted by name), `names` is the same list
        assertTrue(field(xml, H, "alias").contains("<list class=\"java.util.ArrayList\" size=\"0\">"));
        assertTrue(field(xml, H, "names").contains("<ref to=\"" + H + ".alias\"/>"), field(xml, H, "names"));
        // set elements and map entries sorted by their rendering, not by iteration order
        assertTrue(
                field(xml, H, "SEEN")
                        .contains(
                                "<prim class=\"java.lang.Integer\">10</prim><prim class=\"java.lang.Integer\">2</prim>"
                                        + "<prim class=\"java.lang.Integer\">3</prim>"),
                field(xml, H, "SEEN"));
        assertTrue(field(xml, H, "ordered")
                .contains("<entry><string>a</string><string>2</string></entry><entry><string>z</string>"));
        // a compile-time constant is left out
        assertFalse(xml.contains("field=\"CONSTANT\""));
        // without the agent, java.util.concurrent.atomic is not open: the value is recorded as unreadable
        assertTrue(
                field(xml, H, "CURRENT")
                        .contains(
                                "<field name=\"value\"><unreadable class=\"java.lang.Object\" reason=\"java.lang.reflect.InaccessibleObjectException"),
                field(xml, H, "CURRENT"));
        // the singleton of a nested class, with its inner map
        assertTrue(field(xml, H + "$Registry", "INSTANCE")
                .contains("<field name=\"jobs\"><map class=\"java.util.HashMap\" size=\"0\"></map></field>"));
    }

    @Test
    void aPollutedStateDiffersWhereItWasChanged() {
        String clean = capture();
        StateHolder.pollute();
        String polluted = capture();
        assertTrue(field(polluted, H, "RATES")
                .contains("<entry><string>eur</string><prim class=\"java.lang.Double\">0.9</prim></entry>"));
        assertEquals(field(clean, H, "ring"), field(polluted, H, "ring"));
        assertFalse(field(clean, H + "$Registry", "INSTANCE").equals(field(polluted, H + "$Registry", "INSTANCE")));
    }

    @Test
    void theNodeCapIsMarked() {
        String xml = new StateWriter(new Access(null), 5).capture("T#t", 1, CLASSES);
        assertTrue(xml.contains("truncated=\"true\""), xml);
        assertTrue(xml.contains("<truncated/>"), xml);
    }

    @Test
    void escapesWhatXmlCannotHold() {
        StateHolder.label = "a<b & \"c\"\u0001";
        assertTrue(field(capture(), H, "label").contains("<string>a&lt;b &amp; \"c\"\\u0001</string>"));
    }

    static Element staticNode(String xml, String cls, String name) throws Exception {
        Element root = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)))
                .getDocumentElement();
        for (Element c : Restorer.children(root)) {
            if (c.getTagName().equals("class") && c.getAttribute("name").equals(cls)) {
                for (Element s : Restorer.children(c)) {
                    if (s.getAttribute("field").equals(name)) {
                        return Restorer.children(s).get(0);
                    }
                }
            }
        }
        throw new AssertionError(cls + "." + name);
    }

    static void restore(String xml, Class<?> cls, String name) throws Exception {
        new Restorer(new Access(null))
                .restoreStatic(
                        cls.getDeclaredField(name), cls.getName() + "." + name, staticNode(xml, cls.getName(), name));
    }

    @Test
    void restoresInPlaceOrRebuilds() throws Exception {
        String clean = capture();
        Map<String, Double> rates = StateHolder.RATES;
        List<String> names = StateHolder.names;
        StateHolder.pollute();
        StateHolder.names = new java.util.LinkedList<>(Arrays.asList("other"));
        for (String f : new String[] {"RATES", "alias", "names", "counts", "mode", "SEEN", "label"}) {
            restore(clean, StateHolder.class, f);
        }
        restore(clean, StateHolder.Registry.class, "INSTANCE");
        assertTrue(StateHolder.RATES.isEmpty());
        assertSame(rates, StateHolder.RATES, "a static final map is restored in place");
        assertSame(names, StateHolder.alias);
        assertSame(StateHolder.alias, StateHolder.names, "identity between fields is rebuilt");
        assertTrue(StateHolder.names.isEmpty());
        assertEquals(2, StateHolder.counts[1]);
        assertEquals(StateHolder.Mode.SLOW, StateHolder.mode);
        assertTrue(StateHolder.SEEN.isEmpty());
        assertEquals("plain", StateHolder.label);
        assertEquals(0, StateHolder.Registry.getInstance().jobCount());
        assertEquals(0, StateHolder.Registry.getInstance().version());
        assertEquals(field(clean, H, "RATES"), field(capture(), H, "RATES"));
    }

    @Test
    void aCharXmlCannotHoldIsWrittenEscapedAndRestored() throws Exception {
        String clean = capture();
        assertTrue(
                field(clean, H, "buffer").contains("<prim class=\"char\">\\u0000</prim>"), field(clean, H, "buffer"));
        StateHolder.buffer[1] = 'z';
        restore(clean, StateHolder.class, "buffer");
        assertEquals('\u0000', StateHolder.buffer[1]);
    }

    @Test
    void whatCannotBeRebuiltIsSaid() throws Exception {
        String clean = capture();
        StateHolder.pollute();
        Restorer.Unrestorable e =
                assertThrows(Restorer.Unrestorable.class, () -> restore(clean, StateHolder.class, "CURRENT"));
        assertTrue(e.getMessage().contains("cannot read " + H + ".CURRENT.value"), e.getMessage());
        String small = new StateWriter(new Access(null), 3).capture("T#t", 1, CLASSES);
        assertThrows(Restorer.Unrestorable.class, () -> restore(small, StateHolder.class, "ring"));
    }
}

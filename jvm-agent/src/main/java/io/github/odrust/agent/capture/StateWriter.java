package io.github.odrust.agent.capture;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;
import java.util.TreeMap;

/**
 * Writes the state reachable from static fields as deterministic XML (docs/protocol.md, "Heap-state
 * capture"): classes and fields sorted by name, set elements and map entries sorted by their short
 * rendering, object identity and cycles as {@code <ref to="PATH"/>}, a node cap marked by
 * {@code <truncated/>}. It runs no project code: JDK collections are read through their own
 * iteration, every other object through its fields. A value that cannot be read is written as
 * {@code <unreadable>} with the reason; nothing here throws.
 */
final class StateWriter {
    /** Default node cap of one capture. */
    static final int DEFAULT_LIMIT = 200_000;
    /** Node cap of one static field, so one huge cache does not hide the rest. */
    static final int FIELD_LIMIT = 50_000;

    private static final int MAX_DEPTH = 300;
    static final int RENDER_MAX = 200;

    private final Access access;
    private final int limit;
    private final StringBuilder out = new StringBuilder(1 << 16);
    private final IdentityHashMap<Object, String> seen = new IdentityHashMap<>();
    private int nodes;
    private int fieldNodes;
    private boolean stopped;
    private boolean truncated;

    StateWriter(Access access, int limit) {
        this.access = access;
        this.limit = limit;
    }

    /** The whole capture before the {@code occurrence}-th start of {@code test}. */
    String capture(String test, int occurrence, List<Class<?>> classes) {
        List<Class<?>> sorted = new ArrayList<>(classes);
        sorted.sort(Comparator.comparing(Class::getName));
        pseudo();
        String last = null;
        for (Class<?> c : sorted) {
            if (c.getName().equals(last)) {
                continue; // the same name in another loader: the first one (docs/diagnose.md)
            }
            last = c.getName();
            writeClass(c);
        }
        String body = out.toString();
        out.setLength(0);
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<capture version=\"1\"");
        attr("test", test);
        attr("occurrence", String.valueOf(occurrence));
        attr("java", System.getProperty("java.version"));
        attr("nodes", String.valueOf(nodes));
        attr("limit", String.valueOf(limit));
        attr("truncated", String.valueOf(truncated));
        out.append(">\n").append(body).append("</capture>\n");
        return out.toString();
    }

    // ------------------------------------------------------------------ top level

    private void pseudo() {
        // The default TimeZone, once asked for, sets user.timezone: ask first, so that the first
        // capture of a JVM does not differ from the next one by what capturing itself did.
        String zone = TimeZone.getDefault().getID();
        String locale = Locale.getDefault().toLanguageTag();
        Properties props = System.getProperties();
        TreeMap<String, String> sorted = new TreeMap<>();
        for (String k : props.stringPropertyNames()) {
            if (!k.equals("sun.java.command")) { // names the plan file of each JVM
                sorted.put(k, props.getProperty(k));
            }
        }
        startField();
        out.append("<pseudo name=\"java.lang.System.properties\"><map class=\"java.util.Properties\"");
        attr("size", String.valueOf(sorted.size()));
        out.append('>');
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            out.append("<entry><string>")
                    .append(Xml.text(e.getKey()))
                    .append("</string><string>")
                    .append(Xml.text(e.getValue()))
                    .append("</string></entry>");
            nodes += 2;
        }
        out.append("</map></pseudo>\n");
        out.append("<pseudo name=\"java.util.Locale.default\"><text class=\"java.util.Locale\">")
                .append(Xml.text(locale))
                .append("</text></pseudo>\n");
        out.append("<pseudo name=\"java.util.TimeZone.default\"><text class=\"java.util.TimeZone\">")
                .append(Xml.text(zone))
                .append("</text></pseudo>\n");
    }

    private void writeClass(Class<?> c) {
        out.append("<class");
        attr("name", c.getName());
        if (!access.initialized(c)) {
            out.append(" initialized=\"false\"/>\n");
            return;
        }
        out.append(" initialized=\"true\">");
        List<Field> statics = new ArrayList<>();
        try {
            for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                if (!Modifier.isStatic(m) || f.isSynthetic() || f.getName().startsWith("$jacoco")) {
                    continue;
                }
                if (Modifier.isFinal(m) && (f.getType().isPrimitive() || f.getType() == String.class)) {
                    continue; // constants: fixed once the class is initialized
                }
                statics.add(f);
            }
        } catch (Throwable t) {
            System.err.println("odrust-agent: cannot list the fields of " + c.getName() + ": " + t);
        }
        statics.sort(Comparator.comparing(Field::getName));
        for (Field f : statics) {
            String name = c.getName() + "." + f.getName();
            out.append("<static");
            attr("field", f.getName());
            attr("type", Shapes.typeName(f.getType()));
            attr("final", String.valueOf(Modifier.isFinal(f.getModifiers())));
            out.append('>');
            startField();
            if (stopped) {
                out.append("<truncated/>");
                out.append("</static>");
                continue;
            }
            Object value;
            try {
                access.accessible(f, c);
                value = f.get(null);
            } catch (Throwable t) {
                unreadable(f.getType(), t);
                out.append("</static>");
                continue;
            }
            node(value, f.getType().isPrimitive() ? f.getType() : null, name, 0);
            out.append("</static>");
        }
        out.append("</class>\n");
    }

    private void startField() {
        fieldNodes = 0;
        stopped = nodes >= limit;
        if (stopped) {
            truncated = true;
        }
    }

    // ------------------------------------------------------------------ nodes

    /** Counts one node; false (after writing the marker once) when a cap is reached. */
    private boolean count(int depth) {
        if (stopped) {
            return false;
        }
        if (nodes >= limit || fieldNodes >= FIELD_LIMIT || depth > MAX_DEPTH) {
            out.append("<truncated/>");
            stopped = true;
            truncated = true;
            return false;
        }
        nodes++;
        fieldNodes++;
        return true;
    }

    private void node(Object v, Class<?> primitive, String path, int depth) {
        if (!count(depth)) {
            return;
        }
        if (v == null) {
            out.append("<null/>");
            return;
        }
        Class<?> c = v.getClass();
        Shapes.Kind kind;
        try {
            kind = Shapes.kind(c);
        } catch (Throwable t) {
            unreadable(c, t);
            return;
        }
        switch (kind) {
            case PRIM:
                out.append("<prim");
                attr("class", primitive != null ? primitive.getName() : c.getName());
                out.append('>').append(Xml.text(String.valueOf(v))).append("</prim>");
                return;
            case STRING:
                out.append("<string>").append(Xml.text((String) v)).append("</string>");
                return;
            case ENUM:
                out.append("<enum");
                attr("class", ((Enum<?>) v).getDeclaringClass().getName());
                out.append('>').append(Xml.text(((Enum<?>) v).name())).append("</enum>");
                return;
            case TEXT:
                out.append("<text");
                attr("class", textClass(c));
                out.append('>').append(Xml.text(Shapes.text(v))).append("</text>");
                return;
            case OPAQUE:
                out.append("<opaque");
                attr("class", c.getName());
                attr("reason", "odrust does not walk objects of this kind");
                out.append("/>");
                return;
            default:
                break;
        }
        String first = seen.get(v);
        if (first != null) {
            out.append("<ref");
            attr("to", first);
            out.append("/>");
            return;
        }
        seen.put(v, path);
        try {
            switch (kind) {
                case ARRAY:
                    array(v, c, path, depth);
                    return;
                case LIST:
                    list((Collection<?>) v, path, depth);
                    return;
                case SET:
                    set((Collection<?>) v, path, depth);
                    return;
                case MAP:
                    map((Map<?, ?>) v, path, depth);
                    return;
                default:
                    object(v, c, path, depth);
            }
        } catch (Throwable t) {
            // written so far stays; the element is closed by the caller's structure only when
            // opened, so unreadable values are detected before anything is written
            unreadable(c, t);
        }
    }

    private static String textClass(Class<?> c) {
        if (java.util.TimeZone.class.isAssignableFrom(c)) {
            return "java.util.TimeZone";
        }
        if (java.nio.charset.Charset.class.isAssignableFrom(c)) {
            return "java.nio.charset.Charset";
        }
        if (java.nio.file.Path.class.isAssignableFrom(c)) {
            return "java.nio.file.Path";
        }
        return c.getName();
    }

    private void array(Object v, Class<?> c, String path, int depth) {
        int n = Array.getLength(v);
        out.append("<array");
        attr("class", Shapes.typeName(c));
        attr("length", String.valueOf(n));
        out.append('>');
        Class<?> component = c.getComponentType();
        for (int i = 0; i < n && !stopped; i++) {
            node(Array.get(v, i), component.isPrimitive() ? component : null, path + "[" + i + "]", depth + 1);
        }
        out.append("</array>");
    }

    private void list(Collection<?> v, String path, int depth) {
        Object[] items = v.toArray();
        out.append("<list");
        attr("class", v.getClass().getName());
        attr("size", String.valueOf(items.length));
        out.append('>');
        for (int i = 0; i < items.length && !stopped; i++) {
            node(items[i], null, path + "[" + i + "]", depth + 1);
        }
        out.append("</list>");
    }

    private void set(Collection<?> v, String path, int depth) {
        Object[] items = v.toArray();
        String[] keys = new String[items.length];
        Integer[] order = new Integer[items.length];
        for (int i = 0; i < items.length; i++) {
            keys[i] = render(items[i]);
            order[i] = i;
        }
        java.util.Arrays.sort(order, Comparator.comparing(i -> keys[i]));
        out.append("<set");
        attr("class", v.getClass().getName());
        attr("size", String.valueOf(items.length));
        out.append('>');
        for (int k = 0; k < order.length && !stopped; k++) {
            int i = order[k];
            node(items[i], null, path + "{" + keys[i] + "}", depth + 1);
        }
        out.append("</set>");
    }

    private void map(Map<?, ?> v, String path, int depth) {
        Object[] entries = v.entrySet().toArray();
        Object[] ks = new Object[entries.length];
        Object[] vs = new Object[entries.length];
        String[] keys = new String[entries.length];
        Integer[] order = new Integer[entries.length];
        for (int i = 0; i < entries.length; i++) {
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) entries[i];
            ks[i] = e.getKey();
            vs[i] = e.getValue();
            keys[i] = render(ks[i]);
            order[i] = i;
        }
        java.util.Arrays.sort(order, Comparator.comparing(i -> keys[i]));
        out.append("<map");
        attr("class", v.getClass().getName());
        attr("size", String.valueOf(entries.length));
        out.append('>');
        for (int k = 0; k < order.length && !stopped; k++) {
            int i = order[k];
            out.append("<entry>");
            node(ks[i], null, path + "{" + keys[i] + "}", depth + 1);
            node(vs[i], null, path + "[" + keys[i] + "]", depth + 1);
            out.append("</entry>");
        }
        out.append("</map>");
    }

    private void object(Object v, Class<?> c, String path, int depth) {
        List<Field> fields = Shapes.instanceFields(c);
        // read every field first, so an unreadable object is written as one <unreadable>
        Object[] values = new Object[fields.size()];
        String[] problems = new String[fields.size()];
        for (int i = 0; i < values.length; i++) {
            Field f = fields.get(i);
            try {
                access.accessible(f, f.getDeclaringClass());
                values[i] = f.get(v);
            } catch (Throwable t) {
                problems[i] = reason(t);
            }
        }
        out.append("<object");
        attr("class", c.getName());
        out.append('>');
        for (int i = 0; i < values.length && !stopped; i++) {
            Field f = fields.get(i);
            out.append("<field");
            attr("name", f.getName());
            if (Shapes.shadowed(fields, f)) {
                attr("declaring", f.getDeclaringClass().getName());
            }
            out.append('>');
            if (problems[i] != null) {
                if (count(depth + 1)) {
                    out.append("<unreadable");
                    attr("class", Shapes.typeName(f.getType()));
                    attr("reason", problems[i]);
                    out.append("/>");
                }
            } else {
                node(values[i], f.getType().isPrimitive() ? f.getType() : null, path + "." + f.getName(), depth + 1);
            }
            out.append("</field>");
        }
        out.append("</object>");
    }

    private void unreadable(Class<?> c, Throwable t) {
        out.append("<unreadable");
        attr("class", Shapes.typeName(c));
        attr("reason", reason(t));
        out.append("/>");
    }

    private static String reason(Throwable t) {
        String m = t.getMessage();
        return t.getClass().getName() + (m == null ? "" : ": " + (m.length() > 300 ? m.substring(0, 300) : m));
    }

    private void attr(String name, String value) {
        out.append(' ')
                .append(name)
                .append("=\"")
                .append(Xml.attr(value == null ? "" : value))
                .append('"');
    }

    // ------------------------------------------------------------------ short rendering

    /** The short rendering of docs/protocol.md: for sorting and paths, at most 200 characters. */
    String render(Object o) {
        StringBuilder b = new StringBuilder();
        try {
            render(o, b, 0, new IdentityHashMap<Object, Boolean>());
        } catch (Throwable t) {
            b.append("<unreadable>");
        }
        return Xml.cut(b.toString(), RENDER_MAX);
    }

    private void render(Object o, StringBuilder b, int depth, IdentityHashMap<Object, Boolean> path) {
        if (b.length() > RENDER_MAX) {
            return;
        }
        if (o == null) {
            b.append("null");
            return;
        }
        Class<?> c = o.getClass();
        Shapes.Kind kind = Shapes.kind(c);
        switch (kind) {
            case PRIM:
            case STRING:
                b.append(o);
                return;
            case ENUM:
                b.append(((Enum<?>) o).name());
                return;
            case TEXT:
                b.append(Shapes.text(o));
                return;
            case OPAQUE:
                b.append("<opaque ").append(c.getName()).append('>');
                return;
            default:
                break;
        }
        if (depth > 4 || path.containsKey(o)) {
            b.append('…');
            return;
        }
        path.put(o, Boolean.TRUE);
        try {
            switch (kind) {
                case ARRAY: {
                    b.append('[');
                    int n = Array.getLength(o);
                    for (int i = 0; i < n && b.length() <= RENDER_MAX; i++) {
                        b.append(i == 0 ? "" : ", ");
                        render(Array.get(o, i), b, depth + 1, path);
                    }
                    b.append(']');
                    return;
                }
                case LIST:
                case SET: {
                    List<String> parts = new ArrayList<>();
                    for (Object x : ((Collection<?>) o).toArray()) {
                        StringBuilder p = new StringBuilder();
                        render(x, p, depth + 1, path);
                        parts.add(p.toString());
                    }
                    if (kind == Shapes.Kind.SET) {
                        parts.sort(null);
                    }
                    b.append(kind == Shapes.Kind.SET ? '{' : '[')
                            .append(String.join(", ", parts))
                            .append(kind == Shapes.Kind.SET ? '}' : ']');
                    return;
                }
                case MAP: {
                    List<String> parts = new ArrayList<>();
                    for (Object e : ((Map<?, ?>) o).entrySet().toArray()) {
                        Map.Entry<?, ?> me = (Map.Entry<?, ?>) e;
                        StringBuilder p = new StringBuilder();
                        render(me.getKey(), p, depth + 1, path);
                        p.append('=');
                        render(me.getValue(), p, depth + 1, path);
                        parts.add(p.toString());
                    }
                    parts.sort(null);
                    b.append('{').append(String.join(", ", parts)).append('}');
                    return;
                }
                default: {
                    b.append(c.getSimpleName().isEmpty() ? c.getName() : c.getSimpleName())
                            .append('{');
                    boolean firstField = true;
                    for (Field f : Shapes.instanceFields(c)) {
                        if (b.length() > RENDER_MAX) {
                            break;
                        }
                        b.append(firstField ? "" : ", ").append(f.getName()).append('=');
                        firstField = false;
                        access.accessible(f, f.getDeclaringClass());
                        render(f.get(o), b, depth + 1, path);
                    }
                    b.append('}');
                }
            }
        } catch (Throwable t) {
            b.append("<unreadable>");
        } finally {
            path.remove(o);
        }
    }
}

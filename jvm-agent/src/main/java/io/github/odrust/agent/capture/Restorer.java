package io.github.odrust.agent.capture;

import java.io.File;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Sets static fields back to the state a capture recorded (docs/diagnose.md, "Restoring"). An
 * object of the same class as the recorded one is restored in place (its fields set, a JDK
 * collection cleared and refilled), so other references to it see the restore and a
 * {@code static final} field keeps its object; anything else is rebuilt: JDK value types from
 * their text, collections through their no-argument constructor (or the matching JDK factory for
 * immutable and wrapper collections), other objects allocated without a constructor and filled
 * field by field. A static final field whose object cannot be restored in place is written
 * through {@code jdk.internal.misc.Unsafe}. What cannot be rebuilt (an opaque or unreadable value
 * that is not already there, a truncated capture) is reported, never guessed.
 */
final class Restorer {
    /** Thrown when a recorded value cannot be rebuilt; the message says why. */
    static final class Unrestorable extends Exception {
        private static final long serialVersionUID = 1L;

        Unrestorable(String message) {
            super(message);
        }
    }

    private final Access access;
    private final StateWriter renderer;
    private final Map<String, Object> built = new HashMap<>();
    private ClassLoader loader;

    Restorer(Access access) {
        this.access = access;
        this.renderer = new StateWriter(access, 1);
    }

    /** Restores a pseudo-state entry (system properties, default Locale, default TimeZone). */
    void restorePseudo(String name, Element node) throws Unrestorable {
        switch (name) {
            case "java.lang.System.properties": {
                Map<String, String> want = new LinkedHashMap<>();
                for (Element entry : children(node)) {
                    List<Element> kv = children(entry);
                    want.put(kv.get(0).getTextContent(), kv.get(1).getTextContent());
                }
                Properties props = System.getProperties();
                for (String k : new ArrayList<>(props.stringPropertyNames())) {
                    if (!want.containsKey(k) && !k.equals("sun.java.command")) {
                        System.clearProperty(k);
                    }
                }
                for (Map.Entry<String, String> e : want.entrySet()) {
                    if (!e.getValue().equals(System.getProperty(e.getKey()))) {
                        System.setProperty(e.getKey(), e.getValue());
                    }
                }
                return;
            }
            case "java.util.Locale.default":
                Locale.setDefault(Locale.forLanguageTag(node.getTextContent()));
                return;
            case "java.util.TimeZone.default":
                TimeZone.setDefault(TimeZone.getTimeZone(node.getTextContent()));
                return;
            default:
                throw new Unrestorable("unknown pseudo-state " + name);
        }
    }

    /** Sets static field {@code f} back to the value recorded as {@code node}. */
    void restoreStatic(Field f, String display, Element node) throws Exception {
        loader = f.getDeclaringClass().getClassLoader();
        access.accessible(f, f.getDeclaringClass());
        Object current = f.get(null);
        Object value = build(node, current, f.getType(), display);
        if (value != current || f.getType().isPrimitive()) {
            access.setStatic(f, value);
        }
    }

    private Object build(Element e, Object current, Class<?> declared, String path) throws Exception {
        String tag = e.getTagName();
        switch (tag) {
            case "null":
                return null;
            case "prim":
                return prim(e.getAttribute("class"), e.getTextContent());
            case "string":
                return e.getTextContent();
            case "enum":
                return enumValue(e.getAttribute("class"), e.getTextContent());
            case "text":
                return text(e.getAttribute("class"), e.getTextContent(), current);
            case "ref": {
                String to = e.getAttribute("to");
                if (built.containsKey(to)) {
                    return built.get(to);
                }
                return live(to);
            }
            case "opaque":
            case "unreadable":
                if (current != null && Shapes.typeName(current.getClass()).equals(e.getAttribute("class"))) {
                    return current; // not walked, so not changed by the restore: kept as it is
                }
                throw new Unrestorable("the recorded value at " + path + " is " + tag + " (" + e.getAttribute("class")
                        + "): odrust cannot rebuild it");
            case "truncated":
                throw new Unrestorable("the capture was truncated at " + path + " (the node cap)");
            case "array":
                return array(e, current, path);
            case "list":
            case "set":
                return collection(e, current, path);
            case "map":
                return map(e, current, path);
            case "object":
                return object(e, current, path);
            default:
                throw new Unrestorable("unknown capture element <" + tag + "> at " + path);
        }
    }

    private Object array(Element e, Object current, String path) throws Exception {
        String cls = e.getAttribute("class");
        List<Element> items = children(e);
        Object target = current;
        if (target == null
                || !Shapes.typeName(target.getClass()).equals(cls)
                || Array.getLength(target) != items.size()) {
            target = Array.newInstance(load(cls.substring(0, cls.length() - 2)), items.size());
        }
        built.put(path, target);
        for (int i = 0; i < items.size(); i++) {
            Object old = Array.get(target, i);
            Array.set(target, i, build(items.get(i), old, null, path + "[" + i + "]"));
        }
        return target;
    }

    @SuppressWarnings("unchecked")
    private Object collection(Element e, Object current, String path) throws Exception {
        boolean set = e.getTagName().equals("set");
        List<Object> elements = new ArrayList<>();
        // register the target first: elements may refer back to the collection
        Class<?> cls = load(e.getAttribute("class"));
        Collection<Object> target = current != null && current.getClass() == cls ? (Collection<Object>) current : null;
        if (target != null) {
            built.put(path, target);
        }
        for (Element item : children(e)) {
            Object x = build(item, null, null, path + (set ? "{?}" : "[" + elements.size() + "]"));
            if (set) {
                String key = renderer.render(x);
                built.put(path + "{" + key + "}", x);
            }
            elements.add(x);
        }
        if (target != null) {
            try {
                target.clear();
                target.addAll(elements);
                return target;
            } catch (UnsupportedOperationException immutable) {
                // rebuilt below
            }
        }
        Object rebuilt = newCollection(cls, elements);
        built.put(path, rebuilt);
        return rebuilt;
    }

    @SuppressWarnings("unchecked")
    private Object map(Element e, Object current, String path) throws Exception {
        Class<?> cls = load(e.getAttribute("class"));
        Map<Object, Object> target =
                current != null && current.getClass() == cls ? (Map<Object, Object>) current : null;
        if (target != null) {
            built.put(path, target);
        }
        Map<Object, Object> old = target == null ? Collections.emptyMap() : new HashMap<>(target);
        List<Object[]> entries = new ArrayList<>();
        for (Element entry : children(e)) {
            List<Element> kv = children(entry);
            if (kv.size() != 2) {
                throw new Unrestorable("a map entry at " + path + " was truncated");
            }
            Object k = build(kv.get(0), null, null, path + "{?}");
            String key = renderer.render(k);
            built.put(path + "{" + key + "}", k);
            Object v = build(kv.get(1), old.get(k), null, path + "[" + key + "]");
            entries.add(new Object[] {k, v});
        }
        if (target != null) {
            try {
                target.clear();
                for (Object[] kv : entries) {
                    target.put(kv[0], kv[1]);
                }
                return target;
            } catch (UnsupportedOperationException immutable) {
                // rebuilt below
            }
        }
        Map<Object, Object> fill = new LinkedHashMap<>();
        for (Object[] kv : entries) {
            fill.put(kv[0], kv[1]);
        }
        Object rebuilt = newMap(cls, fill);
        built.put(path, rebuilt);
        return rebuilt;
    }

    private Object object(Element e, Object current, String path) throws Exception {
        Class<?> cls = load(e.getAttribute("class"));
        Object target = current != null && current.getClass() == cls ? current : access.allocate(cls);
        built.put(path, target);
        List<Field> fields = Shapes.instanceFields(cls);
        for (Element fe : children(e)) {
            String name = fe.getAttribute("name");
            String declaring = fe.getAttribute("declaring");
            Field f = null;
            for (Field g : fields) {
                if (g.getName().equals(name)
                        && (declaring.isEmpty()
                                || g.getDeclaringClass().getName().equals(declaring))) {
                    f = g;
                    break;
                }
            }
            if (f == null) {
                throw new Unrestorable(cls.getName() + " has no field " + name + " any more (at " + path + ")");
            }
            List<Element> value = children(fe);
            if (value.size() != 1) {
                throw new Unrestorable("the capture was truncated at " + path + "." + name);
            }
            Object old;
            try {
                access.accessible(f, f.getDeclaringClass());
                old = f.get(target);
            } catch (RuntimeException | IllegalAccessException denied) {
                throw new Unrestorable("cannot read " + path + "." + name + ": " + denied);
            }
            Object v = build(value.get(0), old, f.getType(), path + "." + name);
            if (v != old || f.getType().isPrimitive()) {
                access.setInstance(f, target, v);
            }
        }
        return target;
    }

    /** A value outside the restored fields, reached from a static field by {@code .name} and {@code [i]} steps. */
    private Object live(String path) throws Exception {
        String rest = null;
        Object value = null;
        boolean found = false;
        int cut = path.length();
        while (!found && cut > 0) {
            String head = path.substring(0, cut);
            int dot = head.lastIndexOf('.');
            if (dot > 0) {
                try {
                    Class<?> c = Class.forName(head.substring(0, dot), false, loader);
                    Field f = c.getDeclaredField(head.substring(dot + 1));
                    if (!access.initialized(c)) {
                        throw new Unrestorable("refers to " + head + ", whose class is not initialized now");
                    }
                    access.accessible(f, c);
                    value = f.get(null);
                    rest = path.substring(cut);
                    found = true;
                    break;
                } catch (ClassNotFoundException | NoSuchFieldException notThis) {
                    // try a shorter head
                }
            }
            int prev = Math.max(head.lastIndexOf('.'), head.lastIndexOf('['));
            cut = prev;
        }
        if (!found) {
            throw new Unrestorable("refers to " + path + ", outside the restored fields, which odrust cannot find");
        }
        int i = 0;
        while (i < rest.length()) {
            char c = rest.charAt(i);
            if (c == '.') {
                int end = i + 1;
                while (end < rest.length() && rest.charAt(end) != '.' && rest.charAt(end) != '[') {
                    end++;
                }
                String name = rest.substring(i + 1, end);
                Field f = null;
                for (Field g : Shapes.instanceFields(value.getClass())) {
                    if (g.getName().equals(name)) {
                        f = g;
                        break;
                    }
                }
                if (f == null) {
                    throw new Unrestorable("refers to " + path + ", which odrust cannot follow");
                }
                access.accessible(f, f.getDeclaringClass());
                value = f.get(value);
                i = end;
            } else if (c == '['
                    && (value instanceof List
                            || (value != null && value.getClass().isArray()))) {
                int end = rest.indexOf(']', i);
                int index = Integer.parseInt(rest.substring(i + 1, end));
                value = value instanceof List ? ((List<?>) value).get(index) : Array.get(value, index);
                i = end + 1;
            } else {
                throw new Unrestorable("refers to " + path + ", inside a map or set outside the restored fields");
            }
        }
        return value;
    }

    // ------------------------------------------------------------------ values

    private static Object prim(String cls, String text) throws Unrestorable {
        switch (cls) {
            case "int":
            case "java.lang.Integer":
                return Integer.valueOf(text);
            case "long":
            case "java.lang.Long":
                return Long.valueOf(text);
            case "short":
            case "java.lang.Short":
                return Short.valueOf(text);
            case "byte":
            case "java.lang.Byte":
                return Byte.valueOf(text);
            case "boolean":
            case "java.lang.Boolean":
                return Boolean.valueOf(text);
            case "char":
            case "java.lang.Character":
                if (text.length() == 6 && text.startsWith("\\u")) {
                    // a char XML cannot hold, written as \\uXXXX (a char is one character, so
                    // six characters can only be this escape)
                    try {
                        return (char) Integer.parseInt(text.substring(2), 16);
                    } catch (NumberFormatException e) {
                        throw new Unrestorable("a char recorded as '" + text + "'");
                    }
                }
                if (text.length() != 1) {
                    throw new Unrestorable("a char recorded as '" + text + "'");
                }
                return text.charAt(0);
            case "float":
            case "java.lang.Float":
                return Float.valueOf(text);
            case "double":
            case "java.lang.Double":
                return Double.valueOf(text);
            default:
                throw new Unrestorable("unknown primitive class " + cls);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Object enumValue(String cls, String name) throws Exception {
        return Enum.valueOf((Class) load(cls), name);
    }

    private Object text(String cls, String t, Object current) throws Exception {
        switch (cls) {
            case "java.math.BigDecimal":
                return new BigDecimal(t);
            case "java.math.BigInteger":
                return new BigInteger(t);
            case "java.util.UUID":
                return UUID.fromString(t);
            case "java.net.URI":
                return URI.create(t);
            case "java.net.URL":
                return new URL(t);
            case "java.io.File":
                return new File(t);
            case "java.util.Locale":
                return Locale.forLanguageTag(t);
            case "java.util.TimeZone":
                return TimeZone.getTimeZone(t);
            case "java.nio.charset.Charset":
                return Charset.forName(t);
            case "java.nio.file.Path":
                return Paths.get(t);
            case "java.lang.Class":
                return load(t);
            case "java.util.Currency":
                return java.util.Currency.getInstance(t);
            case "java.util.regex.Pattern":
                if (current instanceof Pattern && ((Pattern) current).pattern().equals(t)) {
                    return current;
                }
                return Pattern.compile(t);
            case "java.util.concurrent.atomic.AtomicInteger":
                if (current instanceof AtomicInteger) {
                    ((AtomicInteger) current).set(Integer.parseInt(t));
                    return current;
                }
                return new AtomicInteger(Integer.parseInt(t));
            case "java.util.concurrent.atomic.AtomicLong":
                if (current instanceof AtomicLong) {
                    ((AtomicLong) current).set(Long.parseLong(t));
                    return current;
                }
                return new AtomicLong(Long.parseLong(t));
            case "java.util.concurrent.atomic.AtomicBoolean":
                if (current instanceof AtomicBoolean) {
                    ((AtomicBoolean) current).set(Boolean.parseBoolean(t));
                    return current;
                }
                return new AtomicBoolean(Boolean.parseBoolean(t));
            default:
                if (cls.startsWith("java.time.")) {
                    Class<?> c = load(cls);
                    for (String factory : new String[] {"parse", "of"}) {
                        try {
                            Method m =
                                    c.getMethod(factory, factory.equals("parse") ? CharSequence.class : String.class);
                            return m.invoke(null, t);
                        } catch (NoSuchMethodException next) {
                            // try the other factory
                        }
                    }
                }
                throw new Unrestorable("odrust cannot rebuild a " + cls + " from its text");
        }
    }

    private Object newCollection(Class<?> cls, List<Object> elements) throws Exception {
        String n = cls.getName();
        boolean isSet = Set.class.isAssignableFrom(cls);
        if (n.startsWith("java.util.ImmutableCollections$")) {
            Class<?> iface = isSet ? Set.class : List.class;
            return iface.getMethod("copyOf", Collection.class)
                    .invoke(null, isSet ? new LinkedHashSet<>(elements) : elements);
        }
        if (n.startsWith("java.util.Collections$Unmodifiable")) {
            return isSet
                    ? Collections.unmodifiableSet(new LinkedHashSet<>(elements))
                    : Collections.unmodifiableList(new ArrayList<>(elements));
        }
        if (n.startsWith("java.util.Collections$Synchronized")) {
            return isSet
                    ? Collections.synchronizedSet(new LinkedHashSet<>(elements))
                    : Collections.synchronizedList(new ArrayList<>(elements));
        }
        if (n.startsWith("java.util.Collections$Empty")) {
            return isSet ? Collections.emptySet() : Collections.emptyList();
        }
        if (n.startsWith("java.util.Collections$Singleton") && elements.size() == 1) {
            return isSet ? Collections.singleton(elements.get(0)) : Collections.singletonList(elements.get(0));
        }
        if (n.equals("java.util.Arrays$ArrayList")) {
            return Arrays.asList(elements.toArray());
        }
        @SuppressWarnings("unchecked")
        Collection<Object> c = (Collection<Object>) construct(cls);
        c.addAll(elements);
        return c;
    }

    private Object newMap(Class<?> cls, Map<Object, Object> entries) throws Exception {
        String n = cls.getName();
        if (n.startsWith("java.util.ImmutableCollections$")) {
            return Map.class.getMethod("copyOf", Map.class).invoke(null, entries);
        }
        if (n.startsWith("java.util.Collections$Unmodifiable")) {
            return Collections.unmodifiableMap(entries);
        }
        if (n.startsWith("java.util.Collections$Synchronized")) {
            return Collections.synchronizedMap(entries);
        }
        if (n.startsWith("java.util.Collections$Empty")) {
            return Collections.emptyMap();
        }
        if (n.startsWith("java.util.Collections$Singleton") && entries.size() == 1) {
            Map.Entry<Object, Object> e = entries.entrySet().iterator().next();
            return Collections.singletonMap(e.getKey(), e.getValue());
        }
        @SuppressWarnings("unchecked")
        Map<Object, Object> m = (Map<Object, Object>) construct(cls);
        m.putAll(entries);
        return m;
    }

    private Object construct(Class<?> cls) throws Exception {
        Constructor<?> ctor;
        try {
            ctor = cls.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            throw new Unrestorable(cls.getName() + " has no constructor without arguments to rebuild it with");
        }
        access.accessible(ctor, cls);
        return ctor.newInstance();
    }

    private Class<?> load(String name) throws Unrestorable {
        switch (name) {
            case "int":
                return int.class;
            case "long":
                return long.class;
            case "short":
                return short.class;
            case "byte":
                return byte.class;
            case "boolean":
                return boolean.class;
            case "char":
                return char.class;
            case "float":
                return float.class;
            case "double":
                return double.class;
            case "void":
                return void.class;
            default:
                break;
        }
        if (name.endsWith("[]")) {
            return Array.newInstance(load(name.substring(0, name.length() - 2)), 0)
                    .getClass();
        }
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new Unrestorable("class " + name + " cannot be loaded now: " + e);
        }
    }

    static List<Element> children(Node parent) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element) {
                out.add((Element) n);
            }
        }
        return out;
    }
}

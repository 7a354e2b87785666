package io.github.odrust.agent.record;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The field table: ids handed to instrumented code at transform time, and the lazy, cached
 * classification of each field at report time.
 */
final class Fields {
    static final int UNKNOWN = 0;
    /** Reads dropped (final and immutable: primitive, String, boxed, Class, BigInteger/BigDecimal, enum...). */
    static final int CONSTANT = 1;
    /** Reads are reads (non-final of an immutable type, or a read-like JDK call). */
    static final int PLAIN = 2;
    /** Reads are reads and writes (a reference to an object that may be mutated through it). */
    static final int MUTABLE = 3;
    /** Not tracked at all (declared in a JDK class, synthetic, or an ignore-field). */
    static final int IGNORE = 4;

    /** Declared types whose values cannot change (besides primitives and enums). */
    private static final Set<String> IMMUTABLE = new HashSet<>(Arrays.asList(
            "java.lang.String",
            "java.lang.Boolean",
            "java.lang.Byte",
            "java.lang.Short",
            "java.lang.Character",
            "java.lang.Integer",
            "java.lang.Long",
            "java.lang.Float",
            "java.lang.Double",
            "java.lang.Class",
            "java.math.BigInteger",
            "java.math.BigDecimal",
            // immutable JDK value types
            "java.util.regex.Pattern",
            "java.util.UUID",
            "java.net.URI",
            "java.nio.charset.Charset",
            "java.time.Instant",
            "java.time.Duration",
            "java.time.Period",
            "java.time.LocalDate",
            "java.time.LocalTime",
            "java.time.LocalDateTime",
            "java.time.OffsetDateTime",
            "java.time.OffsetTime",
            "java.time.ZonedDateTime",
            "java.time.ZoneId",
            "java.time.ZoneOffset",
            "java.time.Year",
            "java.time.YearMonth",
            "java.time.MonthDay",
            "java.time.format.DateTimeFormatter"));

    static final class Entry {
        final String owner; // dotted
        final String name;
        final WeakReference<ClassLoader> loader;
        volatile int kind;
        volatile String display;
        /** The resolved field (accessible), to read its value at the end of a window; null if unknown. */
        volatile Field field;

        Entry(String owner, String name, ClassLoader loader, int kind, String display) {
            this.owner = owner;
            this.name = name;
            this.loader = new WeakReference<>(loader);
            this.kind = kind;
            this.display = display;
        }
    }

    private static final Map<String, Integer> IDS = new HashMap<>();
    private static volatile Entry[] entries = new Entry[512];
    private static volatile int size;
    private static volatile Options options = new Options();

    /** Pseudo-fields for JDK global state changed through API calls. */
    static final int SYSTEM_PROPERTIES = pseudo("java.lang.System#properties");

    static final int LOCALE_DEFAULT = pseudo("java.util.Locale#default");
    static final int TIMEZONE_DEFAULT = pseudo("java.util.TimeZone#default");

    private Fields() {}

    static void configure(Options o) {
        options = o;
    }

    static int size() {
        return size;
    }

    private static synchronized int pseudo(String display) {
        int h = display.indexOf('#');
        return add(display, new Entry(display.substring(0, h), display.substring(h + 1), null, PLAIN, display));
    }

    /** The id of a static field as instrumented code names it ({@code owner} internal name). */
    static synchronized int register(String owner, String name, ClassLoader loader) {
        String key = owner + '#' + name;
        Integer id = IDS.get(key);
        if (id != null) {
            return id;
        }
        return add(key, new Entry(owner.replace('/', '.'), name, loader, UNKNOWN, null));
    }

    private static int add(String key, Entry e) {
        int id = size;
        Entry[] es = entries;
        if (id == es.length) {
            es = Arrays.copyOf(es, es.length * 2);
        }
        es[id] = e;
        entries = es;
        IDS.put(key, id);
        size = id + 1;
        return id;
    }

    /** An {@code ignore-field} (after {@link #classify}, which names the field by its declaring class). */
    static boolean ignored(Entry e) {
        return options.ignoredField(e.display);
    }

    static Entry entry(int id) {
        return entries[id];
    }

    /** A {@code constant-type} of the options file. */
    static boolean constantType(String dotted) {
        return options.constantTypes.contains(dotted);
    }

    /** Whether a value of this (dotted) declared type can never change. */
    static boolean immutableType(String dotted) {
        return IMMUTABLE.contains(dotted) || options.constantTypes.contains(dotted);
    }

    /**
     * Field names for the given read and write ids: sorted, constants dropped, mutable reads also
     * writes unless {@code unchanged} (fingerprinted at the first read and at the window's end, equal) has them;
     * writes dropped when {@code unchanged} has them (fingerprinted before the first write and at the end, equal).
     */
    static Recorder.Accesses describe(int[] readIds, int[] writeIds, Bits unchanged) {
        Set<String> reads = new TreeSet<>();
        Set<String> writes = new TreeSet<>();
        Options o = options;
        for (int id : readIds) {
            Entry e = entry(id);
            int k = classify(e);
            if (k == CONSTANT || k == IGNORE || o.ignoredField(e.display)) {
                continue;
            }
            reads.add(e.display);
            if (k == MUTABLE && (unchanged == null || !unchanged.has(id))) {
                writes.add(e.display);
            }
        }
        for (int id : writeIds) {
            Entry e = entry(id);
            // a field left as the window found it (fingerprinted before its first write) was not written
            if (classify(e) != IGNORE && !o.ignoredField(e.display) && (unchanged == null || !unchanged.has(id))) {
                writes.add(e.display);
            }
        }
        return new Recorder.Accesses(list(reads), list(writes));
    }

    private static List<String> list(Set<String> s) {
        return s.isEmpty() ? Collections.<String>emptyList() : Collections.unmodifiableList(new ArrayList<>(s));
    }

    static int classify(Entry e) {
        int k = e.kind;
        if (k != UNKNOWN) {
            return k;
        }
        String display = e.owner + "#" + e.name;
        try {
            Class<?> owner = Class.forName(e.owner, false, e.loader.get());
            Field f = find(owner, e.name, new HashSet<Class<?>>());
            if (f == null) {
                k = MUTABLE;
            } else {
                String declaring = f.getDeclaringClass().getName();
                display = declaring + "#" + f.getName();
                k = Options.never(declaring.replace('.', '/')) || f.isSynthetic() ? IGNORE : kind(f);
                if (k == MUTABLE || k == PLAIN) {
                    try {
                        f.setAccessible(true);
                        e.field = f;
                    } catch (RuntimeException notOpen) {
                        // the end of a window fingerprints the object seen at the first read
                    }
                }
            }
        } catch (Throwable t) {
            k = MUTABLE; // cannot tell: a conservative guess
        }
        e.display = display;
        e.kind = k;
        return k;
    }

    /** JVM field resolution: the class itself, then its superinterfaces, then its superclass. */
    private static Field find(Class<?> c, String name, Set<Class<?>> seen) {
        if (c == null || !seen.add(c)) {
            return null;
        }
        for (Field f : c.getDeclaredFields()) {
            if (f.getName().equals(name) && Modifier.isStatic(f.getModifiers())) {
                return f;
            }
        }
        for (Class<?> i : c.getInterfaces()) {
            Field f = find(i, name, seen);
            if (f != null) {
                return f;
            }
        }
        return find(c.getSuperclass(), name, seen);
    }

    private static int kind(Field f) {
        if (f.isEnumConstant()) {
            return CONSTANT;
        }
        Class<?> t = f.getType();
        boolean immutable = t.isPrimitive()
                || t.isEnum()
                || IMMUTABLE.contains(t.getName())
                || options.constantTypes.contains(t.getName());
        if (!immutable) {
            return MUTABLE;
        }
        return Modifier.isFinal(f.getModifiers()) ? CONSTANT : PLAIN;
    }
}

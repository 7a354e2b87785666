package io.github.odrust.agent.capture;

import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Currency;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/** How a value of a class is captured (docs/diagnose.md, "What a capture holds"). */
final class Shapes {
    enum Kind {
        PRIM,
        STRING,
        ENUM,
        TEXT,
        ARRAY,
        LIST,
        SET,
        MAP,
        OBJECT,
        OPAQUE
    }

    private Shapes() {}

    private static final Set<Class<?>> BOXED = new HashSet<>(Arrays.<Class<?>>asList(
            Integer.class,
            Long.class,
            Short.class,
            Byte.class,
            Character.class,
            Boolean.class,
            Float.class,
            Double.class));

    private static final Set<Class<?>> TEXT = new HashSet<>(Arrays.<Class<?>>asList(
            BigDecimal.class,
            BigInteger.class,
            UUID.class,
            URI.class,
            URL.class,
            File.class,
            Locale.class,
            Pattern.class,
            AtomicInteger.class,
            AtomicLong.class,
            AtomicBoolean.class,
            Class.class,
            Currency.class));

    /** Class-name prefixes never walked: loggers hold whole logging configurations. */
    private static final String[] OPAQUE_PREFIXES = {
        "sun.", "jdk.internal.", "com.sun.proxy.", "java.lang.invoke.", "java.lang.reflect.",
        "java.util.logging.", "org.slf4j.", "ch.qos.logback.", "org.apache.logging.log4j.", "org.apache.log4j.",
        "org.apache.commons.logging.", "io.github.odrust.agent.",
    };

    private static final Class<?>[] OPAQUE_TYPES = {
        Thread.class,
        ThreadGroup.class,
        ClassLoader.class,
        java.lang.ref.Reference.class,
        java.io.InputStream.class,
        java.io.OutputStream.class,
        java.io.Reader.class,
        java.io.Writer.class,
        java.nio.channels.Channel.class,
        Runtime.class,
        java.util.concurrent.Executor.class,
        java.util.concurrent.locks.Lock.class,
        java.util.concurrent.locks.Condition.class,
        java.util.Random.class,
        java.lang.ClassValue.class,
        ThreadLocal.class,
        java.security.ProtectionDomain.class,
        java.security.SecureRandom.class,
    };

    static Kind kind(Class<?> c) {
        if (c == String.class) {
            return Kind.STRING;
        }
        if (BOXED.contains(c)) {
            return Kind.PRIM;
        }
        if (Enum.class.isAssignableFrom(c)) {
            return Kind.ENUM;
        }
        if (c.isArray()) {
            return Kind.ARRAY;
        }
        if (text(c)) {
            return Kind.TEXT;
        }
        if (opaque(c)) {
            return Kind.OPAQUE;
        }
        if (Map.class.isAssignableFrom(c) && jdkIteration(c, "entrySet")) {
            return Kind.MAP;
        }
        if (Collection.class.isAssignableFrom(c) && jdkIteration(c, "iterator")) {
            return Set.class.isAssignableFrom(c) ? Kind.SET : Kind.LIST;
        }
        return Kind.OBJECT;
    }

    private static boolean text(Class<?> c) {
        if (TEXT.contains(c)
                || TimeZone.class.isAssignableFrom(c)
                || Charset.class.isAssignableFrom(c)
                || java.nio.file.Path.class.isAssignableFrom(c)) {
            return true;
        }
        return c.getName().startsWith("java.time.") && !c.isInterface();
    }

    private static boolean opaque(Class<?> c) {
        String n = c.getName();
        if (n.contains("$$Lambda") || n.contains("$Proxy") || n.contains("$$EnhancerBy")) {
            return true;
        }
        for (String p : OPAQUE_PREFIXES) {
            if (n.startsWith(p)) {
                return true;
            }
        }
        for (Class<?> t : OPAQUE_TYPES) {
            if (t.isAssignableFrom(c)) {
                return true;
            }
        }
        return false;
    }

    /** Whether iterating a collection runs only JDK code (a project subclass may override it). */
    private static boolean jdkIteration(Class<?> c, String method) {
        try {
            Class<?> d = c.getMethod(method).getDeclaringClass();
            return d.getName().startsWith("java.");
        } catch (NoSuchMethodException | RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** The text of a TEXT value (parsed back by {@link Restorer}). */
    static String text(Object o) {
        if (o instanceof Class) {
            return ((Class<?>) o).getName();
        }
        if (o instanceof Locale) {
            return ((Locale) o).toLanguageTag();
        }
        if (o instanceof TimeZone) {
            return ((TimeZone) o).getID();
        }
        if (o instanceof Charset) {
            return ((Charset) o).name();
        }
        if (o instanceof Pattern) {
            return ((Pattern) o).pattern();
        }
        return String.valueOf(o);
    }

    /** The class name as captures write it: {@code int[]}, {@code java.lang.String[][]}. */
    static String typeName(Class<?> c) {
        if (c.isArray()) {
            return typeName(c.getComponentType()) + "[]";
        }
        return c.getName();
    }

    /** Instance fields up the hierarchy, sorted by name then declaring class (most derived first). */
    static List<Field> instanceFields(Class<?> c) {
        List<Field> out = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && !f.isSynthetic()) {
                    out.add(f);
                }
            }
        }
        final List<Class<?>> order = new ArrayList<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            order.add(k);
        }
        out.sort(Comparator.comparing(Field::getName).thenComparing(f -> order.indexOf(f.getDeclaringClass())));
        return out;
    }

    /** Whether another field of the list has the same name (then {@code declaring} is written). */
    static boolean shadowed(List<Field> fields, Field f) {
        for (Field g : fields) {
            if (g != f && g.getName().equals(f.getName())) {
                return true;
            }
        }
        return false;
    }
}

package io.github.odrust.agent.record;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A 64-bit hash of the state reachable from an object: equal content gives an equal hash (object
 * identities do not matter), so comparing a field's fingerprint at the first read in a test with
 * the one at the test's end tells whether the test changed what the field refers to.
 *
 * <p>The walk runs no project code: JDK collections ({@code java.util.*}) are iterated through
 * {@code size()}, {@code iterator()} and {@code entrySet()}, strings, boxed values and a few
 * immutable JDK value types are read through the JDK, and every other object of a non-JDK class is
 * hashed structurally through its instance fields (reflection). Anything else (another JDK object
 * such as a {@code Thread}, a stream, a class loader; a field reflection cannot read; a collection
 * that changes under the iteration; more than {@link #BUDGET} nodes; nesting deeper than
 * {@link #MAX_DEPTH}) makes the fingerprint {@link #UNKNOWN}.
 */
final class Fingerprint {
    /** Objects, array elements, collection elements and map entries one walk may visit. */
    static final int BUDGET = 20_000;
    /** Nesting a walk may follow (it recurses): deeper is {@link #UNKNOWN}. */
    static final int MAX_DEPTH = 400;
    /** No fingerprint (never the hash of anything: {@link #of} maps a real hash of this value away). */
    static final long UNKNOWN = 0x8000_0000_0000_0000L;

    private static final long NULL = 0x6a09e667f3bcc909L;
    private static final long REVISIT = 0xbb67ae8584caa73bL;
    private static final long STATELESS = 0x3c6ef372fe94f82bL;

    /** Thrown (preallocated, no stack trace) to abandon a walk. */
    private static final class Unknown extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unknown() {
            super(null, null, false, false);
        }
    }

    private static final Unknown UNKNOWN_WALK = new Unknown();

    // How an object of a class is hashed, decided once per class.
    private static final int K_UNKNOWN = 0;
    private static final int K_STRING = 1;
    private static final int K_BOXED = 2;
    private static final int K_ENUM = 3;
    private static final int K_CLASS = 4;
    private static final int K_ARRAY = 5;
    private static final int K_LIST = 6;
    private static final int K_COLLECTION = 7;
    private static final int K_MAP = 8;
    private static final int K_ATOMIC = 9;
    private static final int K_STATELESS = 10;
    private static final int K_FIELDS = 11;
    private static final int K_TO_STRING = 12;

    private static final class Shape {
        final int kind;
        final long name;
        /** K_FIELDS: instance fields up the hierarchy; a collection subclass: the fields it adds. */
        final Field[] fields;
        /** For a project class that extends a JDK collection without overriding its iteration. */
        final int collectionKind;

        Shape(int kind, long name, Field[] fields, int collectionKind) {
            this.kind = kind;
            this.name = name;
            this.fields = fields;
            this.collectionKind = collectionKind;
        }
    }

    private static final ClassValue<Shape> SHAPES = new ClassValue<Shape>() {
        @Override
        protected Shape computeValue(Class<?> c) {
            return shape(c);
        }
    };

    private final IdentityHashMap<Object, Boolean> visited = new IdentityHashMap<>();
    private int nodes;

    private Fingerprint() {}

    /** The fingerprint of the state reachable from {@code o}, or {@link #UNKNOWN}. Never throws. */
    static long of(Object o) {
        try {
            long h = new Fingerprint().hash(o, 0);
            return h == UNKNOWN ? UNKNOWN + 1 : h;
        } catch (Throwable t) {
            // Unknown, a StackOverflowError, a collection changed under the iteration, ...
            return UNKNOWN;
        }
    }

    private void count(int n) {
        nodes += n;
        if (nodes > BUDGET) {
            throw UNKNOWN_WALK;
        }
    }

    private long hash(Object o, int depth) {
        if (o == null) {
            return NULL;
        }
        Shape s = SHAPES.get(o.getClass());
        switch (s.kind) {
            case K_STRING:
                count(((String) o).length() >>> 6); // long strings cost; short ones are free
                return mix(s.name, string((String) o));
            case K_BOXED:
                return mix(s.name, boxed(o));
            case K_ENUM:
                return mix(s.name, string(((Enum<?>) o).name()));
            case K_CLASS:
                return mix(s.name, string(((Class<?>) o).getName()));
            case K_TO_STRING:
                return mix(s.name, string(o.toString())); // immutable JDK value types only
            case K_STATELESS:
                return mix(STATELESS, s.name);
            case K_UNKNOWN:
                throw UNKNOWN_WALK;
            default:
                break;
        }
        // a node with state: visited once (cycles, shared sub-objects)
        count(1);
        if (visited.put(o, Boolean.TRUE) != null) {
            return mix(REVISIT, s.name);
        }
        if (depth >= MAX_DEPTH) {
            throw UNKNOWN_WALK;
        }
        switch (s.kind) {
            case K_ARRAY:
                return mix(s.name, array(o, depth));
            case K_ATOMIC:
                return mix(s.name, atomic(o, depth));
            case K_LIST:
            case K_COLLECTION:
            case K_MAP:
                return mix(s.name, collection(s.kind, o, depth));
            case K_FIELDS:
                long h = s.name;
                if (s.collectionKind != K_UNKNOWN) {
                    h = mix(h, collection(s.collectionKind, o, depth));
                }
                return mix(h, fields(s.fields, o, depth));
            default:
                throw UNKNOWN_WALK;
        }
    }

    private long fields(Field[] fields, Object o, int depth) {
        long h = fields.length;
        for (Field f : fields) {
            Class<?> t = f.getType();
            long v;
            try {
                if (!t.isPrimitive()) {
                    v = hash(f.get(o), depth + 1);
                } else if (t == long.class) {
                    v = f.getLong(o);
                } else if (t == double.class) {
                    v = Double.doubleToLongBits(f.getDouble(o));
                } else if (t == float.class) {
                    v = Float.floatToIntBits(f.getFloat(o));
                } else if (t == boolean.class) {
                    v = f.getBoolean(o) ? 1 : 2;
                } else if (t == char.class) {
                    v = f.getChar(o);
                } else {
                    v = f.getInt(o); // int, short, byte widen
                }
            } catch (IllegalAccessException | RuntimeException e) {
                throw UNKNOWN_WALK;
            }
            h = mix(h, v);
        }
        return h;
    }

    private long array(Object o, int depth) {
        if (o instanceof Object[]) {
            Object[] a = (Object[]) o;
            long h = a.length;
            for (Object e : a) {
                count(1);
                h = mix(h, hash(e, depth + 1));
            }
            return h;
        }
        // primitive arrays are cheap: one node per 64 elements
        long h;
        if (o instanceof int[]) {
            int[] a = (int[]) o;
            count(a.length >>> 6);
            h = a.length;
            for (int e : a) {
                h = mix(h, e);
            }
        } else if (o instanceof long[]) {
            long[] a = (long[]) o;
            count(a.length >>> 6);
            h = a.length;
            for (long e : a) {
                h = mix(h, e);
            }
        } else if (o instanceof byte[]) {
            byte[] a = (byte[]) o;
            count(a.length >>> 6);
            h = a.length;
            for (byte e : a) {
                h = mix(h, e);
            }
        } else if (o instanceof char[]) {
            char[] a = (char[]) o;
            count(a.length >>> 6);
            h = a.length;
            for (char e : a) {
                h = mix(h, e);
            }
        } else if (o instanceof short[]) {
            short[] a = (short[]) o;
            count(a.length >>> 6);
            h = a.length;
            for (short e : a) {
                h = mix(h, e);
            }
        } else if (o instanceof boolean[]) {
            boolean[] a = (boolean[]) o;
            count(a.length >>> 6);
            h = a.length;
            for (boolean e : a) {
                h = mix(h, e ? 1 : 2);
            }
        } else if (o instanceof float[]) {
            float[] a = (float[]) o;
            count(a.length >>> 6);
            h = a.length;
            for (float e : a) {
                h = mix(h, Float.floatToIntBits(e));
            }
        } else {
            double[] a = (double[]) o;
            count(a.length >>> 6);
            h = a.length;
            for (double e : a) {
                h = mix(h, Double.doubleToLongBits(e));
            }
        }
        return h;
    }

    private long atomic(Object o, int depth) {
        if (o instanceof AtomicInteger) {
            return ((AtomicInteger) o).get();
        } else if (o instanceof AtomicLong) {
            return ((AtomicLong) o).get();
        } else if (o instanceof AtomicBoolean) {
            return ((AtomicBoolean) o).get() ? 1 : 2;
        } else if (o instanceof AtomicReference) {
            return hash(((AtomicReference<?>) o).get(), depth + 1);
        } else if (o instanceof AtomicIntegerArray) {
            AtomicIntegerArray a = (AtomicIntegerArray) o;
            count(a.length() >>> 6);
            long h = a.length();
            for (int i = 0; i < a.length(); i++) {
                h = mix(h, a.get(i));
            }
            return h;
        } else {
            AtomicLongArray a = (AtomicLongArray) o;
            count(a.length() >>> 6);
            long h = a.length();
            for (int i = 0; i < a.length(); i++) {
                h = mix(h, a.get(i));
            }
            return h;
        }
    }

    /** Size, then the elements: in order for a list, as an order-independent sum otherwise. */
    private long collection(int kind, Object o, int depth) {
        long h;
        int n = 0;
        if (kind == K_MAP) {
            Map<?, ?> m = (Map<?, ?>) o;
            h = m.size();
            long sum = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                count(1);
                n++;
                sum += mix(hash(e.getKey(), depth + 1), hash(e.getValue(), depth + 1));
            }
            h = mix(h, sum);
        } else {
            Collection<?> c = (Collection<?>) o;
            h = c.size();
            long sum = 0;
            for (Object e : c) {
                count(1);
                n++;
                long x = hash(e, depth + 1);
                if (kind == K_LIST) {
                    h = mix(h, x);
                } else {
                    sum += mix(x, 0x9e3779b97f4a7c15L);
                }
            }
            h = mix(h, sum);
        }
        return mix(h, n); // size() and the iteration disagree: changed under us, or a weak collection
    }

    private static long boxed(Object o) {
        if (o instanceof Double) {
            return Double.doubleToLongBits((Double) o);
        } else if (o instanceof Float) {
            return Float.floatToIntBits((Float) o);
        } else if (o instanceof Boolean) {
            return ((Boolean) o) ? 1 : 2;
        } else if (o instanceof Character) {
            return (Character) o;
        }
        return ((Number) o).longValue();
    }

    static long string(String s) {
        long h = s.length();
        for (int i = 0; i < s.length(); i++) {
            h = h * 0x100000001b3L + s.charAt(i);
        }
        return mix(h, 0);
    }

    static long mix(long h, long v) {
        long z = h * 0x9e3779b97f4a7c15L + v + 0x632be59bd9b4e019L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    // ---- per-class decisions ----

    static boolean jdk(String n) {
        return n.startsWith("java.")
                || n.startsWith("javax.")
                || n.startsWith("jdk.")
                || n.startsWith("sun.")
                || n.startsWith("com.sun.");
    }

    private static Shape shape(Class<?> c) {
        String n = c.getName();
        long name = string(n);
        try {
            if (c == String.class) {
                return new Shape(K_STRING, name, null, K_UNKNOWN);
            }
            if (c == Integer.class
                    || c == Long.class
                    || c == Short.class
                    || c == Byte.class
                    || c == Double.class
                    || c == Float.class
                    || c == Boolean.class
                    || c == Character.class) {
                return new Shape(K_BOXED, name, null, K_UNKNOWN);
            }
            if (Enum.class.isAssignableFrom(c)) {
                return new Shape(K_ENUM, name, null, K_UNKNOWN);
            }
            if (c == Class.class) {
                return new Shape(K_CLASS, name, null, K_UNKNOWN);
            }
            if (c.isArray()) {
                return new Shape(K_ARRAY, name, null, K_UNKNOWN);
            }
            if (c == AtomicInteger.class
                    || c == AtomicLong.class
                    || c == AtomicBoolean.class
                    || c == AtomicReference.class
                    || c == AtomicIntegerArray.class
                    || c == AtomicLongArray.class) {
                return new Shape(K_ATOMIC, name, null, K_UNKNOWN);
            }
            if (ClassLoader.class.isAssignableFrom(c)) {
                return new Shape(K_UNKNOWN, name, null, K_UNKNOWN); // reflection hides ClassLoader's fields
            }
            if (Fields.constantType(n)) {
                return new Shape(K_STATELESS, name, null, K_UNKNOWN); // a `constant-type`: the user's word
            }
            if (jdk(n)) {
                if (Fields.immutableType(n)) {
                    return new Shape(K_TO_STRING, name, null, K_UNKNOWN);
                }
                if (n.startsWith("java.util.")) {
                    int k = collectionKind(c);
                    if (k != K_UNKNOWN) {
                        return new Shape(k, name, null, K_UNKNOWN);
                    }
                }
                return new Shape(instanceFields(c, null).isEmpty() ? K_STATELESS : K_UNKNOWN, name, null, K_UNKNOWN);
            }
            // a project class: its instance fields, up to (not into) a JDK superclass
            Class<?> jdkSuper = c;
            while (jdkSuper != null && !jdk(jdkSuper.getName())) {
                jdkSuper = jdkSuper.getSuperclass();
            }
            List<Field> fs = instanceFields(c, jdkSuper);
            int collection = K_UNKNOWN;
            if (jdkSuper != null
                    && !instanceFields(jdkSuper, null).isEmpty()
                    && !ABSTRACT_COLLECTIONS.contains(jdkSuper.getName())) {
                // a JDK superclass's own fields cannot be read on Java 9+: only a java.util collection
                // that the project class does not re-implement is hashed (iterated, with the JDK's code)
                if (!jdkSuper.getName().startsWith("java.util.")
                        || overridesIteration(c, jdkSuper)
                        || (collection = collectionKind(jdkSuper)) == K_UNKNOWN) {
                    return new Shape(K_UNKNOWN, name, null, K_UNKNOWN);
                }
            }
            if (fs.isEmpty() && collection == K_UNKNOWN) {
                return new Shape(K_STATELESS, name, null, K_UNKNOWN);
            }
            Field[] a = fs.toArray(new Field[0]);
            AccessibleObject.setAccessible(a, true);
            return new Shape(K_FIELDS, name, a, collection);
        } catch (Throwable t) {
            return new Shape(K_UNKNOWN, name, null, K_UNKNOWN);
        }
    }

    /** JDK skeletons whose own fields are caches or counters: a project class extending one keeps its state in its own fields. */
    private static final java.util.Set<String> ABSTRACT_COLLECTIONS = new java.util.HashSet<>(java.util.Arrays.asList(
            "java.util.AbstractCollection",
            "java.util.AbstractList",
            "java.util.AbstractSequentialList",
            "java.util.AbstractSet",
            "java.util.AbstractQueue",
            "java.util.AbstractMap"));

    private static int collectionKind(Class<?> c) {
        if (Map.class.isAssignableFrom(c)) {
            return K_MAP;
        } else if (List.class.isAssignableFrom(c)) {
            return K_LIST;
        } else if (Collection.class.isAssignableFrom(c)) {
            return K_COLLECTION;
        }
        return K_UNKNOWN;
    }

    /** Whether a class between {@code c} and its JDK superclass declares a method the walk would call. */
    private static boolean overridesIteration(Class<?> c, Class<?> jdkSuper) {
        for (Class<?> k = c; k != null && k != jdkSuper; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                String mn = m.getName();
                if (!Modifier.isStatic(m.getModifiers())
                        && (mn.equals("size") || mn.equals("iterator") || mn.equals("entrySet"))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Non-static fields declared by {@code c} and its superclasses, stopping at {@code stop}. */
    private static List<Field> instanceFields(Class<?> c, Class<?> stop) {
        List<Field> out = new ArrayList<>();
        for (Class<?> k = c; k != null && k != stop; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    out.add(f);
                }
            }
        }
        return out;
    }
}

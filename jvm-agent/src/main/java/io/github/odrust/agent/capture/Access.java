package io.github.odrust.agent.capture;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reading and writing fields under strong encapsulation (JDK 17 to 25) without XStream-style
 * tricks: the agent's {@link Instrumentation} opens a named module's package to the agent's own
 * (unnamed) module ({@code Instrumentation.redefineModule}) before reflection reads it, and
 * exports {@code jdk.internal.misc} so that {@code jdk.internal.misc.Unsafe} can tell whether a
 * class is initialized (a capture must never initialize a class) and write {@code static final}
 * fields. Everything is reached reflectively: the agent is compiled for Java 8. Without an
 * {@link Instrumentation} (tests in-process) only what plain reflection allows works.
 */
public final class Access {
    private final Instrumentation inst;
    /** Open a package before trying plain reflection (on Java 9-15 that would warn, or succeed illegally). */
    private final boolean openFirst;

    private final Set<String> opened = new HashSet<>();

    private static final boolean MODULES = modules();

    /** Whether this JVM has modules (Java 9+); on Java 8 plain reflection reaches every field. */
    public static boolean modules() {
        try {
            Class.class.getMethod("getModule");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private Object unsafe;
    private Method shouldBeInitialized;
    private Method staticFieldBase;
    private Method staticFieldOffset;
    private Method allocateInstance;
    private final Map<Class<?>, Method> putters = new HashMap<>();
    /** Why jdk.internal.misc.Unsafe is not available, or null. */
    private String unsafeProblem;

    public Access(Instrumentation inst) {
        this(inst, true);
    }

    /**
     * An access that only opens packages to read fields, before any plain reflection (which on Java
     * 9-15 warns, or succeeds illegally): {@code jdk.internal.misc} is neither exported nor used.
     */
    public static Access fieldsOnly(Instrumentation inst) {
        return new Access(inst, false);
    }

    private Access(Instrumentation inst, boolean withUnsafe) {
        this.inst = inst;
        this.openFirst = !withUnsafe;
        if (!withUnsafe) {
            unsafeProblem = "jdk.internal.misc.Unsafe is not asked for";
            return;
        }
        try {
            if (inst != null) {
                Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
                open(unsafeClass, false);
            }
            Class<?> u = Class.forName("jdk.internal.misc.Unsafe");
            unsafe = u.getMethod("getUnsafe").invoke(null);
            shouldBeInitialized = u.getMethod("shouldBeInitialized", Class.class);
            staticFieldBase = u.getMethod("staticFieldBase", Field.class);
            staticFieldOffset = u.getMethod("staticFieldOffset", Field.class);
            allocateInstance = u.getMethod("allocateInstance", Class.class);
        } catch (Throwable t) {
            unsafe = null;
            unsafeProblem = "jdk.internal.misc.Unsafe is not available (" + t + ")";
        }
    }

    /** Whether jdk.internal.misc.Unsafe is usable (initialization checks, static final writes). */
    boolean hasUnsafe() {
        return unsafe != null;
    }

    String unsafeProblem() {
        return unsafeProblem;
    }

    /**
     * Whether the class's static initializer has run. Unknown (no Unsafe) counts as initialized
     * only for classes the caller already knows were used; here it answers true then.
     */
    boolean initialized(Class<?> c) {
        if (unsafe == null) {
            return true;
        }
        try {
            return !(Boolean) shouldBeInitialized.invoke(unsafe, c);
        } catch (Throwable t) {
            return false;
        }
    }

    /** Makes {@code o} accessible, opening its package to this agent first when the agent can. */
    public void accessible(AccessibleObject o, Class<?> owner) {
        if (openFirst && inst != null && MODULES) {
            open(owner, true);
            o.setAccessible(true);
            return;
        }
        try {
            o.setAccessible(true);
            return;
        } catch (RuntimeException denied) {
            if (inst == null) {
                throw denied;
            }
        }
        open(owner, true);
        o.setAccessible(true);
    }

    /**
     * Opens (deep reflection) or exports the package of {@code c} to the agent's module, once per
     * package. Throws when the JDK refuses (the caller records the value as unreadable).
     */
    private void open(Class<?> c, boolean deep) {
        if (inst == null) {
            return;
        }
        String pkg = packageName(c);
        if (!opened.add((deep ? "open " : "export ") + pkg)) {
            return;
        }
        try {
            Method getModule = Class.class.getMethod("getModule");
            Object module = getModule.invoke(c);
            Object self = getModule.invoke(Access.class);
            Class<?> moduleClass = Class.forName("java.lang.Module");
            Boolean named = (Boolean) moduleClass.getMethod("isNamed").invoke(module);
            if (!named) {
                return;
            }
            Map<String, Set<Object>> grant = Collections.singletonMap(pkg, Collections.singleton(self));
            Map<String, Set<Object>> none = Collections.emptyMap();
            Method redefine = Instrumentation.class.getMethod(
                    "redefineModule", moduleClass, Set.class, Map.class, Map.class, Set.class, Map.class);
            redefine.invoke(
                    inst,
                    module,
                    Collections.emptySet(),
                    grant,
                    deep ? grant : none,
                    Collections.emptySet(),
                    Collections.emptyMap());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot open package " + pkg + " to the odrust agent: " + e, e);
        }
    }

    private static String packageName(Class<?> c) {
        String n = c.getName();
        int dot = n.lastIndexOf('.');
        return dot < 0 ? "" : n.substring(0, dot);
    }

    /** A new instance without running a constructor (rebuilding an object of a project class). */
    Object allocate(Class<?> c) throws Exception {
        if (unsafe == null) {
            throw new IllegalStateException(unsafeProblem);
        }
        return allocateInstance.invoke(unsafe, c);
    }

    /**
     * Sets a static field. A non-final one through reflection; a {@code static final} one through
     * {@code jdk.internal.misc.Unsafe} (reflection refuses it on every JDK since 12); code the JIT
     * compiled with the old constant folded in keeps it, which odrust accepts because restores run
     * before the victim's first line, in a JVM that has run only a few tests.
     */
    void setStatic(Field f, Object value) throws Exception {
        if (!Modifier.isFinal(f.getModifiers())) {
            accessible(f, f.getDeclaringClass());
            f.set(null, value);
            return;
        }
        if (unsafe == null) {
            throw new IllegalStateException("a static final field can only be set through " + unsafeProblem);
        }
        Object base = staticFieldBase.invoke(unsafe, f);
        long offset = (Long) staticFieldOffset.invoke(unsafe, f);
        put(base, offset, f.getType(), value);
    }

    /** Sets an instance field (final ones too: reflection allows it for ordinary classes). */
    void setInstance(Field f, Object target, Object value) throws Exception {
        accessible(f, f.getDeclaringClass());
        try {
            f.set(target, value);
        } catch (IllegalAccessException finalOfRecordOrHidden) {
            if (unsafe == null) {
                throw finalOfRecordOrHidden;
            }
            long offset = (Long) unsafe.getClass()
                    .getMethod("objectFieldOffset", Field.class)
                    .invoke(unsafe, f);
            put(target, offset, f.getType(), value);
        }
    }

    private void put(Object base, long offset, Class<?> type, Object value) throws Exception {
        Method m = putters.get(type);
        if (m == null) {
            String name;
            Class<?> param = type;
            if (!type.isPrimitive()) {
                name = "putReferenceVolatile";
                param = Object.class;
            } else {
                String t = type.getName();
                name = "put" + Character.toUpperCase(t.charAt(0)) + t.substring(1) + "Volatile";
            }
            m = unsafe.getClass().getMethod(name, Object.class, long.class, param);
            putters.put(type, m);
        }
        m.invoke(unsafe, base, offset, value);
    }
}

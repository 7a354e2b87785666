package io.github.odrust.agent.serve;

import java.sql.Driver;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The JDBC drivers of one order in a shared JVM (docs/isolation.md). {@link DriverManager} finds
 * the drivers of the classpath once per JVM, on its first use ({@code java.sql.Driver} services
 * and {@code jdbc.drivers}), with the class loader of the order that used it first; a driver is
 * then offered only to code whose loader sees the same driver class, so the next orders, in class
 * loaders of their own, got "No suitable driver" where a fresh JVM finds one. The server defines
 * this class anew in each order's loader ({@link IsolatingLoader#defineOwn}), so that
 * {@code DriverManager}, which asks who calls it, takes its calls for the order's: {@link #register}
 * loads the order's drivers at its start as {@code DriverManager}'s first use does (each
 * registers itself), {@link #release} deregisters them at its end, so an order's loader is not
 * held for the rest of the JVM.
 */
public final class JdbcDrivers {
    private JdbcDrivers() {}

    /** Loads the drivers {@code order} provides, as {@code DriverManager} does on its first use; how many. */
    public static int register(ClassLoader order) {
        int loaded = 0;
        Iterator<Driver> drivers = ServiceLoader.load(Driver.class, order).iterator();
        while (true) {
            try {
                if (!drivers.hasNext()) {
                    break;
                }
                drivers.next();
                loaded++;
            } catch (Throwable t) {
                // as DriverManager: the look-up ends at the first provider that cannot be loaded
                break;
            }
        }
        String named = System.getProperty("jdbc.drivers");
        if (named != null) {
            for (String name : named.split(":")) {
                if (name.trim().isEmpty()) {
                    continue;
                }
                try {
                    Class.forName(name.trim(), true, order);
                    loaded++;
                } catch (Throwable t) {
                    // as DriverManager: a driver it cannot load is skipped
                }
            }
        }
        return loaded;
    }

    /** Deregisters the drivers {@code order} defined; how many. */
    public static int release(ClassLoader order) {
        List<Driver> own = new ArrayList<Driver>();
        for (Enumeration<Driver> e = DriverManager.getDrivers(); e.hasMoreElements(); ) {
            Driver d = e.nextElement();
            if (d.getClass().getClassLoader() == order) {
                own.add(d);
            }
        }
        int released = 0;
        for (Driver d : own) {
            try {
                DriverManager.deregisterDriver(d);
                released++;
            } catch (Throwable t) {
                // a driver whose DriverAction throws stays registered; the JVM retires on memory
            }
        }
        return released;
    }
}

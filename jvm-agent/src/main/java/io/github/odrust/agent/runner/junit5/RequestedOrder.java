package io.github.odrust.agent.runner.junit5;

import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import org.junit.jupiter.api.MethodDescriptor;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.MethodOrdererContext;

/**
 * The default {@link MethodOrderer} while odrust runs a segment
 * ({@code junit.jupiter.testmethod.order.default}): orders test methods by their position in the
 * requested order, which the runner sets before each discovery/execution. Unrequested methods keep
 * their relative order after the requested ones. Classes with their own {@code @TestMethodOrder}
 * ignore it; the runner notices (it compares the test plan with the request) and splits.
 */
public final class RequestedOrder implements MethodOrderer {
    private static volatile Map<Method, Integer> ranks = Collections.emptyMap();

    public RequestedOrder() {}

    static void set(Map<Method, Integer> r) {
        ranks = r;
    }

    @Override
    public void orderMethods(MethodOrdererContext context) {
        final Map<Method, Integer> r = ranks;
        context.getMethodDescriptors().sort(new Comparator<MethodDescriptor>() {
            @Override
            public int compare(MethodDescriptor a, MethodDescriptor b) {
                return Integer.compare(rank(r, a.getMethod()), rank(r, b.getMethod()));
            }
        });
    }

    private static int rank(Map<Method, Integer> r, Method m) {
        Integer i = r.get(m);
        return i == null ? Integer.MAX_VALUE : i;
    }
}

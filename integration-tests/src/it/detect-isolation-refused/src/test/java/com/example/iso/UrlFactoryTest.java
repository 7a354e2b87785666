package com.example.iso;

import static org.junit.Assert.assertNotNull;

import java.net.URL;
import org.junit.Test;

public class UrlFactoryTest {
    /** Sets the JVM's one URL stream handler factory: the second time in a JVM, it throws an Error. */
    @Test
    public void installsAHandlerFactory() throws Exception {
        URL.setURLStreamHandlerFactory(protocol -> null);
        assertNotNull(new URL("http://example.com/"));
    }
}

package org.jloadgen.sut;

import java.nio.file.Path;

/**
 * Where SUTs keep what they derive once and reuse: the extracted embedded model, built TensorRT engines. One root
 * for all, chosen by the {@value #PROP_NAME} property, else the {@value #ENV_NAME} variable, else
 * {@code $XDG_CACHE_HOME/jloadgen}, else {@code ~/.cache/jloadgen}.
 */
public final class CacheDirectory
{
    /** System property naming the cache folder. */
    public static final String PROP_NAME = "jloadgen.cache.dir";
    /** Environment variable naming the cache folder (when the property is not set). */
    public static final String ENV_NAME = "JLOADGEN_CACHE_DIR";

    private CacheDirectory()
    {
    }

    /**
     * @return the cache root for this process.
     */
    public static Path root()
    {
        final String property = System.getProperty(PROP_NAME);
        if (property != null && !property.isBlank())
        {
            return Path.of(property);
        }
        final String env = System.getenv(ENV_NAME);
        if (env != null && !env.isBlank())
        {
            return Path.of(env);
        }
        final String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank())
        {
            return Path.of(xdg, "jloadgen");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "jloadgen");
    }
}

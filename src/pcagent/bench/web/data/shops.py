"""The products and prices of the offline shops (shop-a.local, shop-b.local and the copies of
www.amazon.com, www.walmart.com and www.bestbuy.com)."""

from __future__ import annotations

from typing import Any, Final

# --- shops: shop-a.local, shop-b.local, www.amazon.com, www.walmart.com, www.bestbuy.com ----------

PRODUCTS: Final[dict[str, dict[str, str]]] = {
    "wireless-mouse": {
        "name": "Wireless Mouse M220",
        "description": "Quiet-click optical mouse, 2.4 GHz receiver, 18-month battery life.",
    },
    "mechanical-keyboard": {
        "name": "Mechanical Keyboard K87",
        "description": "Tenkeyless keyboard with brown switches and a detachable USB-C cable.",
    },
    "usb-c-hub": {
        "name": "USB-C Hub 7-in-1",
        "description": "HDMI 4K, three USB-A ports, SD and microSD readers, 100 W pass-through.",
    },
    "noise-cancelling-headphones": {
        "name": "Noise Cancelling Headphones H700",
        "description": "Over-ear, 30 hours of battery, folding design with a hard case.",
    },
    "portable-ssd": {
        "name": "Portable SSD 1TB",
        "description": "Pocket-size solid-state drive, up to 1050 MB/s over USB 3.2.",
    },
    "webcam": {
        "name": "Full HD Webcam C30",
        "description": "1080p at 30 frames per second, privacy shutter, two microphones.",
    },
    "nintendo-switch": {
        "name": "Nintendo Switch Console",
        "description": (
            "Games console that plays on the TV or in your hands, with two detachable "
            "Joy-Con controllers and 32 GB of storage."
        ),
    },
    "game-controller": {
        "name": "Wireless Pro Game Controller",
        "description": "Bluetooth gamepad with motion controls, rumble and a 40-hour battery.",
    },
    "microsd-card": {
        "name": "microSD Card 256GB",
        "description": "UHS-I memory card, reads at up to 100 MB/s, full-size SD adapter included.",
    },
    "carrying-case": {
        "name": "Hard Carrying Case",
        "description": "Zip-up travel case with a padded inner flap and room for ten game cards.",
    },
}

SHOPS: Final[dict[str, dict[str, Any]]] = {
    "shop-a.local": {
        "name": "Maple Market",
        "prices": {
            "wireless-mouse": 24.99,
            "mechanical-keyboard": 89.00,
            "usb-c-hub": 39.50,
            "noise-cancelling-headphones": 179.00,
            "portable-ssd": 94.99,
            "webcam": 45.00,
        },
    },
    "shop-b.local": {
        "name": "Harbor Goods",
        "prices": {
            "wireless-mouse": 21.49,
            "mechanical-keyboard": 94.50,
            "usb-c-hub": 34.90,
            "noise-cancelling-headphones": 189.99,
            "portable-ssd": 89.00,
            "webcam": 47.25,
        },
    },
    "www.amazon.com": {
        "name": "Amazon",
        "prices": {
            "nintendo-switch": 299.99,
            "game-controller": 64.99,
            "microsd-card": 24.99,
            "carrying-case": 15.99,
        },
    },
    "www.walmart.com": {
        "name": "Walmart",
        "prices": {
            "nintendo-switch": 289.00,
            "game-controller": 59.00,
            "microsd-card": 22.47,
        },
    },
    "www.bestbuy.com": {
        "name": "Best Buy",
        "prices": {
            "nintendo-switch": 294.99,
            "game-controller": 69.99,
            "microsd-card": 26.99,
            "carrying-case": 19.99,
        },
    },
}

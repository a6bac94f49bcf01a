/// The products the shop opens with, inserted once by a migration.
enum CatalogSeed {
    struct Entry {
        let slug: String
        let name: String
        let summary: String
        let category: String
        let priceCents: Int64
        let icon: String
        let featured: Bool
    }

    static let products: [Entry] = [
        Entry(slug: "trail-running-shoes", name: "Trail Running Shoes", summary: "Grippy, cushioned shoes for rocky and muddy trails.", category: "Running", priceCents: 12_800, icon: "shoe", featured: true),
        Entry(slug: "insulated-water-bottle", name: "Insulated Water Bottle", summary: "Keeps drinks cold for 24 hours or hot for 12.", category: "Hydration", priceCents: 2_450, icon: "bottle", featured: true),
        Entry(slug: "ultralight-tent", name: "Ultralight Tent", summary: "A two-person tent that packs smaller than a loaf of bread.", category: "Camping", priceCents: 34_900, icon: "tent", featured: true),
        Entry(slug: "daypack-22l", name: "Daypack 22L", summary: "A light, ventilated pack with a hydration sleeve.", category: "Hiking", priceCents: 8_900, icon: "backpack", featured: true),
        Entry(slug: "rain-shell-jacket", name: "Rain Shell Jacket", summary: "Waterproof, breathable and packs into its own pocket.", category: "Apparel", priceCents: 15_900, icon: "jacket", featured: true),
        Entry(slug: "rechargeable-headlamp", name: "Rechargeable Headlamp", summary: "400 lumens with a red night mode and USB-C charging.", category: "Camping", priceCents: 4_495, icon: "headlamp", featured: true),
        Entry(slug: "gps-running-watch", name: "GPS Running Watch", summary: "Pace, heart rate and maps on your wrist for a week.", category: "Running", priceCents: 24_999, icon: "watch", featured: false),
        Entry(slug: "merino-running-socks", name: "Merino Running Socks", summary: "Cushioned wool socks that stay fresh for days.", category: "Running", priceCents: 1_800, icon: "socks", featured: false),
        Entry(slug: "running-cap", name: "Running Cap", summary: "A featherweight cap with a sweat-wicking band.", category: "Running", priceCents: 2_200, icon: "cap", featured: false),
        Entry(slug: "sport-sunglasses", name: "Sport Sunglasses", summary: "Polarised wraparound lenses that never bounce.", category: "Running", priceCents: 7_900, icon: "sunglasses", featured: false),
        Entry(slug: "hydration-flask-500", name: "Soft Flask 500 ml", summary: "A collapsible flask that fits any vest pocket.", category: "Hydration", priceCents: 2_900, icon: "bottle", featured: false),
        Entry(slug: "camp-mug", name: "Titanium Camp Mug", summary: "A 450 ml mug that doubles as a cook pot.", category: "Hydration", priceCents: 3_450, icon: "mug", featured: false),
        Entry(slug: "water-filter-bottle", name: "Filter Bottle", summary: "Drink straight from streams with a built-in filter.", category: "Hydration", priceCents: 4_900, icon: "bottle", featured: false),
        Entry(slug: "down-sleeping-bag", name: "Down Sleeping Bag", summary: "Warm to -5 °C and compresses to the size of a melon.", category: "Camping", priceCents: 29_900, icon: "sleeping-bag", featured: false),
        Entry(slug: "backpacking-stove", name: "Backpacking Stove", summary: "Boils a litre of water in three minutes.", category: "Camping", priceCents: 5_995, icon: "stove", featured: false),
        Entry(slug: "quick-dry-towel", name: "Quick-Dry Towel", summary: "A microfibre towel that dries in an hour.", category: "Camping", priceCents: 1_995, icon: "towel", featured: false),
        Entry(slug: "hiking-pack-45l", name: "Hiking Pack 45L", summary: "A framed pack for long weekends on the trail.", category: "Hiking", priceCents: 18_900, icon: "backpack", featured: false),
        Entry(slug: "trail-map-set", name: "Trail Map Set", summary: "Waterproof maps of the national parks' best routes.", category: "Hiking", priceCents: 2_495, icon: "map", featured: false),
        Entry(slug: "hiking-boots", name: "Hiking Boots", summary: "Waterproof leather boots with a stiff, sure sole.", category: "Hiking", priceCents: 17_500, icon: "shoe", featured: false),
        Entry(slug: "fleece-midlayer", name: "Fleece Midlayer", summary: "A warm grid fleece that breathes on the climb.", category: "Apparel", priceCents: 7_500, icon: "jacket", featured: false),
        Entry(slug: "insulated-puffer", name: "Insulated Puffer", summary: "Synthetic insulation that stays warm when wet.", category: "Apparel", priceCents: 21_900, icon: "jacket", featured: false),
        Entry(slug: "wool-beanie", name: "Wool Beanie", summary: "A soft merino beanie for cold starts.", category: "Apparel", priceCents: 2_800, icon: "cap", featured: false),
        Entry(slug: "gravel-bike", name: "Gravel Bike", summary: "An aluminium gravel bike with wide tyres and disc brakes.", category: "Cycling", priceCents: 149_900, icon: "bike", featured: false),
        Entry(slug: "cycling-bottle", name: "Cycling Bottle", summary: "A squeezable 750 ml bottle for any cage.", category: "Cycling", priceCents: 1_200, icon: "bottle", featured: false),
    ]
}

/**
 * Indian states and union territories with a selection of their cities and towns.
 *
 * Browser-safe, dependency-free data module (used by both the API and the site).
 * 28 states + 8 union territories. Cities within each state are sorted
 * alphabetically (`localeCompare(..., 'en')`). Official current names are used
 * where a city was renamed (e.g. Chhatrapati Sambhajinagar, Prayagraj, Gurugram).
 *
 * Per the product spec, two misspelt keys exist IN ADDITION to the correct ones and
 * share the same city list: "Himachal Pardesh" (for "Himachal Pradesh") and
 * "Puduchery" (for "Puducherry").
 */

const ANDHRA_PRADESH: readonly string[] = Object.freeze([
  'Adoni', 'Amaravati', 'Anantapur', 'Bhimavaram', 'Chilakaluripet', 'Chittoor', 'Dharmavaram',
  'Eluru', 'Gudivada', 'Guntakal', 'Guntur', 'Hindupur', 'Kadapa', 'Kakinada', 'Kavali',
  'Kurnool', 'Machilipatnam', 'Madanapalle', 'Mangalagiri', 'Nandyal', 'Narasaraopet',
  'Nellore', 'Ongole', 'Proddatur', 'Rajahmundry', 'Srikakulam', 'Tadepalligudem', 'Tadipatri',
  'Tenali', 'Tirupati', 'Vijayawada', 'Visakhapatnam', 'Vizianagaram',
]);

const ARUNACHAL_PRADESH: readonly string[] = Object.freeze([
  'Aalo', 'Anini', 'Bomdila', 'Changlang', 'Daporijo', 'Itanagar', 'Khonsa', 'Naharlagun',
  'Namsai', 'Pasighat', 'Roing', 'Seppa', 'Tawang', 'Tezu', 'Ziro',
]);

const ASSAM: readonly string[] = Object.freeze([
  'Barpeta', 'Bongaigaon', 'Dhemaji', 'Dhubri', 'Dibrugarh', 'Digboi', 'Diphu', 'Duliajan',
  'Goalpara', 'Golaghat', 'Guwahati', 'Haflong', 'Hailakandi', 'Hojai', 'Jorhat', 'Karimganj',
  'Kokrajhar', 'Mangaldoi', 'Margherita', 'Nagaon', 'Nalbari', 'North Lakhimpur', 'Silchar',
  'Sivasagar', 'Tezpur', 'Tinsukia',
]);

const BIHAR: readonly string[] = Object.freeze([
  'Arrah', 'Aurangabad', 'Begusarai', 'Bettiah', 'Bhagalpur', 'Bihar Sharif', 'Bodh Gaya',
  'Buxar', 'Chapra', 'Darbhanga', 'Dehri', 'Gaya', 'Hajipur', 'Jamalpur', 'Jehanabad',
  'Katihar', 'Kishanganj', 'Madhubani', 'Motihari', 'Munger', 'Muzaffarpur', 'Nawada', 'Patna',
  'Purnia', 'Saharsa', 'Samastipur', 'Sasaram', 'Sitamarhi', 'Siwan',
]);

const CHHATTISGARH: readonly string[] = Object.freeze([
  'Ambikapur', 'Bhatapara', 'Bhilai', 'Bilaspur', 'Chirmiri', 'Dhamtari', 'Dongargarh', 'Durg',
  'Jagdalpur', 'Janjgir', 'Kanker', 'Kawardha', 'Korba', 'Mahasamund', 'Nava Raipur',
  'Raigarh', 'Raipur', 'Rajnandgaon',
]);

const GOA: readonly string[] = Object.freeze([
  'Bicholim', 'Calangute', 'Canacona', 'Cuncolim', 'Curchorem', 'Mapusa', 'Margao', 'Mormugao',
  'Panaji', 'Pernem', 'Ponda', 'Quepem', 'Sanguem', 'Sanquelim', 'Valpoi', 'Vasco da Gama',
]);

const GUJARAT: readonly string[] = Object.freeze([
  'Ahmedabad', 'Amreli', 'Anand', 'Ankleshwar', 'Bharuch', 'Bhavnagar', 'Bhuj', 'Botad',
  'Dahod', 'Deesa', 'Dwarka', 'Gandhidham', 'Gandhinagar', 'Godhra', 'Gondal', 'Himmatnagar',
  'Jamnagar', 'Jetpur', 'Junagadh', 'Kalol', 'Mehsana', 'Morbi', 'Nadiad', 'Navsari',
  'Palanpur', 'Patan', 'Porbandar', 'Rajkot', 'Surat', 'Surendranagar', 'Vadodara', 'Valsad',
  'Vapi', 'Veraval',
]);

const HARYANA: readonly string[] = Object.freeze([
  'Ambala', 'Bahadurgarh', 'Bhiwani', 'Charkhi Dadri', 'Faridabad', 'Fatehabad', 'Gurugram',
  'Hansi', 'Hisar', 'Jhajjar', 'Jind', 'Kaithal', 'Karnal', 'Kurukshetra', 'Mahendragarh',
  'Narnaul', 'Nuh', 'Palwal', 'Panchkula', 'Panipat', 'Rewari', 'Rohtak', 'Sirsa', 'Sonipat',
  'Thanesar', 'Yamunanagar',
]);

const HIMACHAL_PRADESH: readonly string[] = Object.freeze([
  'Baddi', 'Bilaspur', 'Chamba', 'Dalhousie', 'Dharamshala', 'Hamirpur', 'Jogindernagar',
  'Kangra', 'Kasauli', 'Keylong', 'Kullu', 'Manali', 'Mandi', 'Nahan', 'Nalagarh', 'Palampur',
  'Paonta Sahib', 'Parwanoo', 'Rampur Bushahr', 'Reckong Peo', 'Shimla', 'Solan',
  'Sundernagar', 'Una',
]);

const JHARKHAND: readonly string[] = Object.freeze([
  'Adityapur', 'Bokaro Steel City', 'Chaibasa', 'Chatra', 'Chirkunda', 'Deoghar', 'Dhanbad',
  'Dumka', 'Giridih', 'Godda', 'Gumla', 'Hazaribagh', 'Jamshedpur', 'Jhumri Telaiya',
  'Koderma', 'Lohardaga', 'Medininagar', 'Pakur', 'Phusro', 'Ramgarh', 'Ranchi', 'Sahibganj',
  'Simdega',
]);

const KARNATAKA: readonly string[] = Object.freeze([
  'Bagalkot', 'Ballari', 'Belagavi', 'Bengaluru', 'Bhadravati', 'Bidar', 'Chamarajanagar',
  'Chikkaballapur', 'Chikkamagaluru', 'Chitradurga', 'Davanagere', 'Dharwad', 'Gadag',
  'Gangavati', 'Hassan', 'Haveri', 'Hosapete', 'Hubballi', 'Kalaburagi', 'Karwar', 'Kolar',
  'Koppal', 'Madikeri', 'Mandya', 'Mangaluru', 'Manipal', 'Mysuru', 'Raichur', 'Ramanagara',
  'Robertsonpet', 'Shivamogga', 'Sirsi', 'Tumakuru', 'Udupi', 'Vijayapura', 'Yadgir',
]);

const KERALA: readonly string[] = Object.freeze([
  'Alappuzha', 'Attingal', 'Changanassery', 'Cherthala', 'Guruvayur', 'Kalpetta', 'Kanhangad',
  'Kannur', 'Kasaragod', 'Kayamkulam', 'Kochi', 'Kollam', 'Kottayam', 'Kozhikode',
  'Malappuram', 'Manjeri', 'Munnar', 'Nedumangad', 'Neyyattinkara', 'Palakkad',
  'Pathanamthitta', 'Payyanur', 'Perinthalmanna', 'Ponnani', 'Thalassery',
  'Thiruvananthapuram', 'Thodupuzha', 'Thrissur', 'Tirur', 'Vadakara', 'Varkala',
]);

const MADHYA_PRADESH: readonly string[] = Object.freeze([
  'Balaghat', 'Betul', 'Bhopal', 'Burhanpur', 'Chhatarpur', 'Chhindwara', 'Damoh', 'Datia',
  'Dewas', 'Dhar', 'Guna', 'Gwalior', 'Indore', 'Itarsi', 'Jabalpur', 'Katni', 'Khandwa',
  'Khargone', 'Mandla', 'Mandsaur', 'Morena', 'Narmadapuram', 'Neemuch', 'Pithampur', 'Ratlam',
  'Rewa', 'Sagar', 'Satna', 'Sehore', 'Seoni', 'Shivpuri', 'Singrauli', 'Ujjain', 'Vidisha',
]);

const MAHARASHTRA: readonly string[] = Object.freeze([
  'Ahilyanagar', 'Akola', 'Alibag', 'Ambernath', 'Amravati', 'Badlapur', 'Baramati', 'Beed',
  'Bhiwandi', 'Bhusawal', 'Chandrapur', 'Chhatrapati Sambhajinagar', 'Dharashiv', 'Dhule',
  'Dombivli', 'Gondia', 'Ichalkaranji', 'Jalgaon', 'Jalna', 'Kalyan', 'Kolhapur', 'Latur',
  'Lonavala', 'Mahabaleshwar', 'Malegaon', 'Mira-Bhayandar', 'Mumbai', 'Nagpur', 'Nanded',
  'Nashik', 'Navi Mumbai', 'Palghar', 'Panvel', 'Parbhani', 'Pimpri-Chinchwad', 'Pune',
  'Ratnagiri', 'Sangli', 'Satara', 'Solapur', 'Thane', 'Ulhasnagar', 'Vasai-Virar', 'Wardha',
  'Yavatmal',
]);

const MANIPUR: readonly string[] = Object.freeze([
  'Bishnupur', 'Chandel', 'Churachandpur', 'Imphal', 'Jiribam', 'Kakching', 'Kangpokpi',
  'Moirang', 'Senapati', 'Tamenglong', 'Thoubal', 'Ukhrul',
]);

const MEGHALAYA: readonly string[] = Object.freeze([
  'Baghmara', 'Jowai', 'Khliehriat', 'Mairang', 'Mawkyrwat', 'Nongpoh', 'Nongstoin',
  'Resubelpara', 'Shillong', 'Sohra', 'Tura', 'Williamnagar',
]);

const MIZORAM: readonly string[] = Object.freeze([
  'Aizawl', 'Champhai', 'Hnahthial', 'Khawzawl', 'Kolasib', 'Lawngtlai', 'Lunglei', 'Mamit',
  'Saitual', 'Serchhip', 'Siaha',
]);

const NAGALAND: readonly string[] = Object.freeze([
  'Chumoukedima', 'Dimapur', 'Kiphire', 'Kohima', 'Longleng', 'Mokokchung', 'Mon', 'Peren',
  'Phek', 'Tuensang', 'Wokha', 'Zunheboto',
]);

const ODISHA: readonly string[] = Object.freeze([
  'Angul', 'Balangir', 'Balasore', 'Barbil', 'Bargarh', 'Baripada', 'Berhampur', 'Bhadrak',
  'Bhawanipatna', 'Bhubaneswar', 'Cuttack', 'Dhenkanal', 'Jajpur', 'Jeypore', 'Jharsuguda',
  'Kendrapara', 'Keonjhar', 'Konark', 'Koraput', 'Paradip', 'Phulbani', 'Puri', 'Rayagada',
  'Rourkela', 'Sambalpur', 'Sunabeda', 'Talcher',
]);

const PUNJAB: readonly string[] = Object.freeze([
  'Abohar', 'Amritsar', 'Anandpur Sahib', 'Barnala', 'Batala', 'Bathinda', 'Faridkot',
  'Fazilka', 'Firozpur', 'Gurdaspur', 'Hoshiarpur', 'Jalandhar', 'Kapurthala', 'Khanna',
  'Ludhiana', 'Malerkotla', 'Mansa', 'Moga', 'Mohali', 'Nawanshahr', 'Pathankot', 'Patiala',
  'Phagwara', 'Rajpura', 'Rupnagar', 'Sangrur', 'Sri Muktsar Sahib', 'Tarn Taran', 'Zirakpur',
]);

const RAJASTHAN: readonly string[] = Object.freeze([
  'Ajmer', 'Alwar', 'Banswara', 'Baran', 'Barmer', 'Beawar', 'Bharatpur', 'Bhilwara',
  'Bikaner', 'Bundi', 'Chittorgarh', 'Churu', 'Dausa', 'Dholpur', 'Dungarpur', 'Hanumangarh',
  'Jaipur', 'Jaisalmer', 'Jhalawar', 'Jhunjhunu', 'Jodhpur', 'Karauli', 'Kishangarh', 'Kota',
  'Mount Abu', 'Nagaur', 'Pali', 'Pushkar', 'Sawai Madhopur', 'Sikar', 'Sirohi',
  'Sri Ganganagar', 'Tonk', 'Udaipur',
]);

const SIKKIM: readonly string[] = Object.freeze([
  'Gangtok', 'Gyalshing', 'Jorethang', 'Lachung', 'Mangan', 'Namchi', 'Pakyong', 'Rangpo',
  'Ravangla', 'Singtam', 'Soreng',
]);

const TAMIL_NADU: readonly string[] = Object.freeze([
  'Ambur', 'Avadi', 'Chengalpattu', 'Chennai', 'Coimbatore', 'Cuddalore', 'Dharmapuri',
  'Dindigul', 'Erode', 'Hosur', 'Kanchipuram', 'Kanyakumari', 'Karaikudi', 'Karur',
  'Kodaikanal', 'Kovilpatti', 'Krishnagiri', 'Kumbakonam', 'Madurai', 'Nagapattinam',
  'Nagercoil', 'Namakkal', 'Pollachi', 'Pudukkottai', 'Rajapalayam', 'Ramanathapuram', 'Salem',
  'Sivakasi', 'Tambaram', 'Thanjavur', 'Theni', 'Thoothukudi', 'Tiruchirappalli',
  'Tirunelveli', 'Tiruppur', 'Tiruvannamalai', 'Udhagamandalam', 'Vellore', 'Viluppuram',
  'Virudhunagar',
]);

const TELANGANA: readonly string[] = Object.freeze([
  'Adilabad', 'Bhadrachalam', 'Bodhan', 'Hyderabad', 'Jagtial', 'Kamareddy', 'Karimnagar',
  'Khammam', 'Kothagudem', 'Mahabubnagar', 'Mancherial', 'Medak', 'Miryalaguda', 'Nalgonda',
  'Nirmal', 'Nizamabad', 'Ramagundam', 'Sangareddy', 'Secunderabad', 'Siddipet', 'Suryapet',
  'Vikarabad', 'Wanaparthy', 'Warangal', 'Zaheerabad',
]);

const TRIPURA: readonly string[] = Object.freeze([
  'Agartala', 'Ambassa', 'Belonia', 'Bishalgarh', 'Dharmanagar', 'Kailashahar', 'Kamalpur',
  'Khowai', 'Melaghar', 'Sabroom', 'Santirbazar', 'Sonamura', 'Teliamura', 'Udaipur',
]);

const UTTAR_PRADESH: readonly string[] = Object.freeze([
  'Agra', 'Aligarh', 'Amroha', 'Ayodhya', 'Azamgarh', 'Bahraich', 'Ballia', 'Banda',
  'Bareilly', 'Basti', 'Budaun', 'Bulandshahr', 'Deoria', 'Etah', 'Etawah', 'Farrukhabad',
  'Fatehpur', 'Firozabad', 'Ghaziabad', 'Gonda', 'Gorakhpur', 'Greater Noida', 'Hapur',
  'Hardoi', 'Jhansi', 'Kanpur', 'Lakhimpur', 'Lalitpur', 'Lucknow', 'Mathura', 'Mau', 'Meerut',
  'Mirzapur', 'Moradabad', 'Muzaffarnagar', 'Noida', 'Orai', 'Pilibhit', 'Prayagraj',
  'Raebareli', 'Rampur', 'Saharanpur', 'Shahjahanpur', 'Sitapur', 'Sultanpur', 'Unnao',
  'Varanasi', 'Vrindavan',
]);

const UTTARAKHAND: readonly string[] = Object.freeze([
  'Almora', 'Bageshwar', 'Champawat', 'Dehradun', 'Gopeshwar', 'Haldwani', 'Haridwar',
  'Jaspur', 'Kashipur', 'Khatima', 'Kotdwar', 'Mussoorie', 'Nainital', 'Pauri', 'Pithoragarh',
  'Ranikhet', 'Rishikesh', 'Roorkee', 'Rudrapur', 'Sitarganj', 'Srinagar', 'Tehri',
  'Uttarkashi', 'Vikasnagar',
]);

const WEST_BENGAL: readonly string[] = Object.freeze([
  'Alipurduar', 'Asansol', 'Baharampur', 'Balurghat', 'Bankura', 'Barasat', 'Bardhaman',
  'Barrackpore', 'Bidhannagar', 'Bolpur', 'Chandannagar', 'Cooch Behar', 'Darjeeling',
  'Durgapur', 'English Bazar', 'Habra', 'Haldia', 'Howrah', 'Jalpaiguri', 'Kalimpong',
  'Kalyani', 'Kharagpur', 'Kolkata', 'Krishnanagar', 'Medinipur', 'Purulia', 'Raiganj',
  'Serampore', 'Shantipur', 'Siliguri', 'Suri', 'Tamluk',
]);

const ANDAMAN_AND_NICOBAR_ISLANDS: readonly string[] = Object.freeze([
  'Bambooflat', 'Campbell Bay', 'Car Nicobar', 'Diglipur', 'Garacharma', 'Hut Bay',
  'Mayabunder', 'Rangat', 'Shaheed Dweep', 'Sri Vijaya Puram', 'Swaraj Dweep',
]);

const CHANDIGARH: readonly string[] = Object.freeze([
  'Chandigarh', 'Manimajra',
]);

const DADRA_AND_NAGAR_HAVELI_AND_DAMAN_AND_DIU: readonly string[] = Object.freeze([
  'Amli', 'Dadra', 'Daman', 'Diu', 'Khanvel', 'Naroli', 'Silvassa',
]);

const DELHI: readonly string[] = Object.freeze([
  'Chanakyapuri', 'Delhi', 'Dwarka', 'Janakpuri', 'Karol Bagh', 'Lajpat Nagar', 'Laxmi Nagar',
  'Mayur Vihar', 'Mehrauli', 'Najafgarh', 'Narela', 'New Delhi', 'Pitampura', 'Rohini',
  'Saket', 'Shahdara', 'Vasant Kunj',
]);

const JAMMU_AND_KASHMIR: readonly string[] = Object.freeze([
  'Anantnag', 'Bandipora', 'Baramulla', 'Budgam', 'Doda', 'Ganderbal', 'Gulmarg', 'Jammu',
  'Kathua', 'Katra', 'Kishtwar', 'Kulgam', 'Kupwara', 'Pahalgam', 'Poonch', 'Pulwama',
  'Rajouri', 'Ramban', 'Reasi', 'Samba', 'Shopian', 'Sopore', 'Srinagar', 'Udhampur',
]);

const LADAKH: readonly string[] = Object.freeze([
  'Diskit', 'Drass', 'Hanle', 'Kargil', 'Khalsi', 'Leh', 'Nyoma', 'Padum', 'Sankoo', 'Turtuk',
]);

const LAKSHADWEEP: readonly string[] = Object.freeze([
  'Agatti', 'Amini', 'Andrott', 'Bitra', 'Chetlat', 'Kadmat', 'Kalpeni', 'Kavaratti', 'Kiltan',
  'Minicoy',
]);

const PUDUCHERRY: readonly string[] = Object.freeze([
  'Ariyankuppam', 'Bahour', 'Karaikal', 'Mahe', 'Mannadipet', 'Nettapakkam', 'Ozhukarai',
  'Puducherry', 'Villianur', 'Yanam',
]);

export const STATES_AND_CITIES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'Andaman and Nicobar Islands': ANDAMAN_AND_NICOBAR_ISLANDS,
  'Andhra Pradesh': ANDHRA_PRADESH,
  'Arunachal Pradesh': ARUNACHAL_PRADESH,
  Assam: ASSAM,
  Bihar: BIHAR,
  Chandigarh: CHANDIGARH,
  Chhattisgarh: CHHATTISGARH,
  'Dadra and Nagar Haveli and Daman and Diu': DADRA_AND_NAGAR_HAVELI_AND_DAMAN_AND_DIU,
  Delhi: DELHI,
  Goa: GOA,
  Gujarat: GUJARAT,
  Haryana: HARYANA,
  'Himachal Pardesh': HIMACHAL_PRADESH, // misspelt variant required by the product spec
  'Himachal Pradesh': HIMACHAL_PRADESH,
  'Jammu and Kashmir': JAMMU_AND_KASHMIR,
  Jharkhand: JHARKHAND,
  Karnataka: KARNATAKA,
  Kerala: KERALA,
  Ladakh: LADAKH,
  Lakshadweep: LAKSHADWEEP,
  'Madhya Pradesh': MADHYA_PRADESH,
  Maharashtra: MAHARASHTRA,
  Manipur: MANIPUR,
  Meghalaya: MEGHALAYA,
  Mizoram: MIZORAM,
  Nagaland: NAGALAND,
  Odisha: ODISHA,
  Puducherry: PUDUCHERRY,
  Puduchery: PUDUCHERRY, // misspelt variant required by the product spec
  Punjab: PUNJAB,
  Rajasthan: RAJASTHAN,
  Sikkim: SIKKIM,
  'Tamil Nadu': TAMIL_NADU,
  Telangana: TELANGANA,
  Tripura: TRIPURA,
  'Uttar Pradesh': UTTAR_PRADESH,
  Uttarakhand: UTTARAKHAND,
  'West Bengal': WEST_BENGAL,
});

/** All keys of {@link STATES_AND_CITIES} (including the two misspelt variants), sorted alphabetically. */
export const STATE_NAMES: readonly string[] = Object.freeze(
  Object.keys(STATES_AND_CITIES).sort((a, b) => a.localeCompare(b, 'en')),
);

const EMPTY: readonly string[] = Object.freeze([]);

/** Cities of a state/UT (exact key match); an empty array for an unknown state. */
export function citiesOf(state: string): readonly string[] {
  return Object.hasOwn(STATES_AND_CITIES, state) ? (STATES_AND_CITIES[state] ?? EMPTY) : EMPTY;
}

/** True when `city` is listed for `state` (exact, case-sensitive match). */
export function isCityOf(state: string, city: string): boolean {
  return citiesOf(state).includes(city);
}
